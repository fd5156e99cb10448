package io.regina.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A controller parameter bound from the JSON request body by {@link JsonBodies}, with the refusal
 * texts of the API; null when the request has no body.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface JsonBody {
    /** How refusals name the body: "The request body must be a JSON object (&lt;value&gt;)". */
    String value();

    /** A body that is not a JSON object counts as none (the endpoints whose every field is optional). */
    boolean nonObjectIsNone() default false;
}
