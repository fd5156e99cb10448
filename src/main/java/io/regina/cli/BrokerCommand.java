package io.regina.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** What every {@code queue:*} command shares: the global options {@code --url}, {@code --token} and {@code --json}, output. */
abstract class BrokerCommand implements Callable<Integer> {
    @ParentCommand
    ReginaCli root;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL",
            description = "The broker's base URL (default: $REGINA_URL, else " + ReginaCli.DEFAULT_URL + ").")
    String url;

    @Option(names = "--token", paramLabel = "JWT",
            description = "A bearer token for a broker with API authentication on (default: $REGINA_TOKEN).")
    String token;

    @Option(names = "--json", description = "Print the broker's JSON answer instead of text.")
    boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public final Integer call() {
        int code = execute(new BrokerClient(url(), token()));
        out().flush();
        err().flush();
        return code;
    }

    /** Runs the command; returns the exit code or throws {@link CliException}. */
    abstract int execute(BrokerClient broker);

    String url() {
        if (url != null && !url.isBlank()) {
            return url;
        }
        return root != null ? root.defaultUrl() : ReginaCli.DEFAULT_URL;
    }

    String token() {
        if (token != null && !token.isBlank()) {
            return token.trim();
        }
        return root != null ? root.defaultToken() : "";
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** With {@code --json}: prints the broker's answer as it came and returns true. */
    boolean printedJson(BrokerClient.Answer answer) {
        if (!json) {
            return false;
        }
        out().println(answer.body().strip());
        return true;
    }

    static CliException usage(String message) {
        return new CliException(ReginaCli.USAGE, message);
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() ? "" : value.asString();
    }

    static long number(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() ? 0 : value.asLong();
    }

    static String plural(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
