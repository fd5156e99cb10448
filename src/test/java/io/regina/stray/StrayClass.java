package io.regina.stray;

/** A class in a package that config/import-control.xml has no rule for: KnownPackages must report it. */
public final class StrayClass {
}
