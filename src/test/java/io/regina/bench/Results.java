package io.regina.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every figure of a benchmark run, by lane, condition, metric and system, each with its run number; and
 * every failure. Prints one Markdown table per lane with the systems side by side, median and spread, and
 * the ratio of Regina to the best peer; and CSV.
 */
final class Results {

    static final String REGINA = "Regina";

    private record Sample(int run, double value) {
    }

    private record Failure(String condition, String system, int run, String error) {
    }

    private static final class Lane {
        final Map<String, Map<Metric, Map<String, List<Sample>>>> values = new LinkedHashMap<>();
        final List<Failure> failures = new ArrayList<>();
        final Set<String> systems = new LinkedHashSet<>();
    }

    private final Map<String, Lane> lanes = new LinkedHashMap<>();
    private final List<String> systemOrder;

    Results(List<String> systemOrder) {
        this.systemOrder = systemOrder;
    }

    void record(String lane, String condition, String system, int run, Metric metric, double value) {
        Lane l = lane(lane, system);
        l.values.computeIfAbsent(condition, c -> new LinkedHashMap<>()).computeIfAbsent(metric, m -> new LinkedHashMap<>())
                .computeIfAbsent(system, s -> new ArrayList<>()).add(new Sample(run, value));
        Benchmark.LOG.printf(Locale.ROOT, "    %-26s %-34s %s %s%n", system, metric.label, fmt(value), metric.unit);
    }

    void fail(String lane, String condition, String system, int run, String error) {
        Lane l = lane(lane, system);
        l.values.computeIfAbsent(condition, c -> new LinkedHashMap<>());
        l.failures.add(new Failure(condition, system, run, error));
        Benchmark.LOG.printf("    %-26s FAILED: %s%n", system, error);
    }

    private Lane lane(String lane, String system) {
        Lane l = lanes.computeIfAbsent(lane, k -> new Lane());
        l.systems.add(system);
        return l;
    }

    boolean failed() {
        return lanes.values().stream().anyMatch(l -> !l.failures.isEmpty());
    }

    Set<String> laneNames() {
        return lanes.keySet();
    }

    Set<String> conditions(String lane) {
        return lanes.get(lane).values.keySet();
    }

    List<String> systems(String lane) {
        return systemOrder.stream().filter(lanes.get(lane).systems::contains).toList();
    }

    /** The median over the runs of one cell, NaN when it has no value. */
    double median(String lane, String condition, Metric metric, String system) {
        List<Double> v = values(lane, condition, metric, system);
        if (v.isEmpty()) {
            return Double.NaN;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private List<Double> values(String lane, String condition, Metric metric, String system) {
        Map<Metric, Map<String, List<Sample>>> byMetric = lanes.get(lane).values.getOrDefault(condition, Map.of());
        return byMetric.getOrDefault(metric, Map.of()).getOrDefault(system, List.of()).stream()
                .map(Sample::value).sorted().toList();
    }

    private boolean hasFailed(String lane, String condition, String system) {
        return lanes.get(lane).failures.stream().anyMatch(f -> f.condition.equals(condition) && f.system.equals(system));
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Lane> e : lanes.entrySet()) {
            String name = e.getKey();
            Lane lane = e.getValue();
            List<String> systems = systems(name);
            List<String> reginas = systems.stream().filter(Results::isRegina).toList();
            List<String> ratios = reginas.size() < systems.size() ? reginas : List.of();
            sb.append("### ").append(name).append("\n\n| conditions | metric |");
            systems.forEach(s -> sb.append(' ').append(s).append(" |"));
            ratios.forEach(s -> sb.append(' ').append(s).append(" ÷ best peer |"));
            sb.append("\n|---|---|").append("---:|".repeat(systems.size() + ratios.size())).append('\n');
            for (Map.Entry<String, Map<Metric, Map<String, List<Sample>>>> c : lane.values.entrySet()) {
                for (Metric m : c.getValue().keySet()) {
                    sb.append("| ").append(c.getKey()).append(" | ").append(m.label)
                            .append(m.label.equals(m.unit) ? "" : " (" + m.unit + ")").append(" |");
                    for (String s : systems) {
                        sb.append(' ').append(cell(name, c.getKey(), m, s)).append(" |");
                    }
                    for (String regina : ratios) {
                        sb.append(' ').append(ratio(name, c.getKey(), m, regina, systems)).append(" |");
                    }
                    sb.append('\n');
                }
            }
            if (!lane.failures.isEmpty()) {
                sb.append("\n**FAILED:**\n\n");
                for (Failure f : lane.failures) {
                    sb.append("- ").append(f.condition).append(", ").append(f.system).append(", run ").append(f.run)
                            .append(": ").append(f.error.replace('\n', ' ')).append('\n');
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private String cell(String lane, String condition, Metric m, String system) {
        if (hasFailed(lane, condition, system)) {
            return "**FAIL**";
        }
        List<Double> v = values(lane, condition, m, system);
        if (v.isEmpty()) {
            return "—";
        }
        String median = fmt(median(lane, condition, m, system));
        return v.size() == 1 ? median : median + " (" + fmt(v.get(0)) + "–" + fmt(v.get(v.size() - 1)) + ")";
    }

    /** Regina's systems (its two worker models); the others are the peers. */
    static boolean isRegina(String system) {
        return system.startsWith(REGINA);
    }

    private String ratio(String lane, String condition, Metric m, String system, List<String> systems) {
        double regina = hasFailed(lane, condition, system) ? Double.NaN : median(lane, condition, m, system);
        double best = Double.NaN;
        for (String s : systems) {
            double v = hasFailed(lane, condition, s) ? Double.NaN : median(lane, condition, m, s);
            if (isRegina(s) || Double.isNaN(v)) {
                continue;
            }
            best = Double.isNaN(best) ? v : m.higherIsBetter ? Math.max(best, v) : Math.min(best, v);
        }
        if (Double.isNaN(regina) || Double.isNaN(best) || best == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", regina / best);
    }

    String csv(String date) {
        StringBuilder sb = new StringBuilder("date,lane,conditions,system,metric,unit,run,value,error\n");
        for (Map.Entry<String, Lane> e : lanes.entrySet()) {
            for (Map.Entry<String, Map<Metric, Map<String, List<Sample>>>> c : e.getValue().values.entrySet()) {
                for (Map.Entry<Metric, Map<String, List<Sample>>> m : c.getValue().entrySet()) {
                    for (Map.Entry<String, List<Sample>> s : m.getValue().entrySet()) {
                        for (Sample x : s.getValue()) {
                            sb.append(String.join(",", csvCell(date), csvCell(e.getKey()), csvCell(c.getKey()),
                                    csvCell(s.getKey()), csvCell(m.getKey().label), csvCell(m.getKey().unit),
                                    Integer.toString(x.run), String.format(Locale.ROOT, "%.4f", x.value), ""))
                                    .append('\n');
                        }
                    }
                }
            }
            for (Failure f : e.getValue().failures) {
                sb.append(String.join(",", csvCell(date), csvCell(e.getKey()), csvCell(f.condition),
                        csvCell(f.system), "", "", Integer.toString(f.run), "", csvCell(f.error))).append('\n');
            }
        }
        return sb.toString();
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 0.1 || a == 0) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String csvCell(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
