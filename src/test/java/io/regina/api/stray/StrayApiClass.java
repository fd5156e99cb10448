package io.regina.api.stray;

/** A class in a sub-package of {@code api} that has no rule of its own: KnownPackages must report it. */
public final class StrayApiClass {
}
