package io.regina.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A controller parameter bound from the JSON request body by {@link JsonBodies}, with the refusal
 * texts of the API. Unless {@link #optional}, a request without a JSON object as body is refused.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface JsonBody {
    /** How refusals name the body: "The request body must be a JSON object (&lt;value&gt;)". */
    String value();

    /** Every field is optional: no body, or one that is not a JSON object, binds as null. */
    boolean optional() default false;
}
