package io.regina.api.dto;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a refusal names a nested request object of this type when it is not a JSON object:
 * "The request body must be a JSON object (&lt;value&gt;)". Types without it are refused as
 * "'field' must be an object" or "list[i] must be an object", the texts Queen's clients have seen.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ObjectName {
    String value();
}
