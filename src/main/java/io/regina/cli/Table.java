package io.regina.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain text table: left-aligned columns two spaces apart, header in capitals. */
final class Table {
    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = headers.clone();
    }

    Table row(Object... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("expected " + headers.length + " cells, got " + cells.length);
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : String.valueOf(c)).toArray(String[]::new));
        return this;
    }

    void print(PrintWriter out) {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = headers[i].length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        line(out, headers, widths);
        for (String[] row : rows) {
            line(out, row, widths);
        }
    }

    private static void line(PrintWriter out, String[] cells, int[] widths) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            text.append(cells[i]);
            if (i < cells.length - 1) {
                text.append(" ".repeat(widths[i] - cells[i].length() + 2));
            }
        }
        out.println(text.toString().stripTrailing());
    }
}
