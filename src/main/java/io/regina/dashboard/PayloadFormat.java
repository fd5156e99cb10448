package io.regina.dashboard;

/** The port the dashboard formats and checks JSON payloads through; the wiring backs it with Jackson. */
public interface PayloadFormat {

    /** The payload indented for reading; text that is not JSON comes back unchanged. */
    String pretty(String json);

    /**
     * The payload as compact JSON text.
     *
     * @throws IllegalArgumentException when the text is not one JSON value, with a message saying why
     */
    String compact(String json);
}
