package io.regina.bench;

import java.util.List;
import java.util.Locale;

/**
 * The results as one SVG a person reads at a glance: a panel per headline figure, a group of horizontal
 * bars per condition, one bar per system in a fixed colour, each labelled with its median. Plain text, no
 * plotting library.
 */
final class SvgChart {

    /** One panel: a lane's metric. */
    record Panel(String lane, Metric metric) {
    }

    private static final String[] COLOURS = {"#1f5fa8", "#c0392b", "#e67e22", "#27ae60"};
    private static final int WIDTH = 960;
    private static final int LABEL = 300;
    private static final int BAR = 15;
    private static final int GAP = 10;

    private final Results results;
    private final List<String> systems;

    SvgChart(Results results, List<String> systems) {
        this.results = results;
        this.systems = systems;
    }

    String render(String title, List<Panel> panels) {
        StringBuilder body = new StringBuilder();
        int y = 60;
        for (int i = 0; i < systems.size(); i++) {
            int x = 20 + i * 230;
            body.append(String.format(Locale.ROOT, "<rect x='%d' y='38' width='14' height='14' fill='%s'/>"
                    + "<text x='%d' y='50'>%s</text>%n", x, COLOURS[i % COLOURS.length], x + 20, esc(systems.get(i))));
        }
        for (Panel p : panels) {
            if (!results.laneNames().contains(p.lane())) {
                continue;
            }
            y = panel(body, p, y + 20);
        }
        return String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
                + "font-family='sans-serif' font-size='12'>%n<rect width='100%%' height='100%%' fill='white'/>%n"
                + "<text x='20' y='24' font-size='16' font-weight='bold'>%s</text>%n%s</svg>%n",
                WIDTH, y + 20, esc(title), body);
    }

    private int panel(StringBuilder sb, Panel p, int top) {
        List<String> lanes = results.systems(p.lane());
        double max = 0;
        for (String c : results.conditions(p.lane())) {
            for (String s : lanes) {
                double v = results.median(p.lane(), c, p.metric(), s);
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        String lane = p.lane().contains(" — ") ? p.lane().substring(0, p.lane().indexOf(" — ")) : p.lane();
        sb.append(String.format(Locale.ROOT, "<text x='20' y='%d' font-size='14' font-weight='bold'>%s: %s (%s, %s)"
                + "</text>%n", top + 14, esc(lane), esc(p.metric().label), esc(p.metric().unit),
                p.metric().higherIsBetter ? "longer is better" : "shorter is better"));
        int y = top + 26;
        double scale = max > 0 ? (WIDTH - LABEL - 90) / max : 0;
        for (String c : results.conditions(p.lane())) {
            int groupTop = y;
            for (String s : lanes) {
                double v = results.median(p.lane(), c, p.metric(), s);
                String colour = COLOURS[Math.max(0, systems.indexOf(s)) % COLOURS.length];
                if (Double.isNaN(v)) {
                    sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' fill='%s'>no figure (failed or not run)"
                            + "</text>%n", LABEL, y + BAR - 3, colour));
                } else {
                    int w = (int) Math.max(1, Math.round(v * scale));
                    sb.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>"
                            + "<text x='%d' y='%d'>%s</text>%n", LABEL, y, w, BAR, colour, LABEL + w + 5,
                            y + BAR - 3, esc(Results.fmt(v))));
                }
                y += BAR + 2;
            }
            sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%s</text>%n", LABEL - 8,
                    (groupTop + y) / 2 + 4, esc(c)));
            y += GAP;
        }
        sb.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#888'/>%n", LABEL,
                top + 22, LABEL, y - GAP));
        return y;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;");
    }
}
