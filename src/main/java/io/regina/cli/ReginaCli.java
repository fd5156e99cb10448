package io.regina.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The command line of Regina ("the artisan of Regina"): Laravel-style {@code queue:*} commands, each one
 * HTTP call to a running broker's REST API (API.md B1, B2). It runs inside the broker's jar without
 * starting Spring: {@code io.regina.ReginaApplication.main} hands every argument list whose first word
 * starts with {@code queue:} to {@link #run(String...)}.
 *
 * <p>Exit codes: {@value #OK} ok; {@value #FAILED} the operation failed, something was not found, or
 * {@code queue:monitor} raised an ALERT; {@value #USAGE} usage error (bad arguments, rejected by the CLI
 * or by the broker with HTTP 400, or a refusal such as {@code queue:clear} without {@code --force});
 * {@value #UNREACHABLE} the broker could not be reached.
 */
@Command(name = "regina", synopsisSubcommandLabel = "COMMAND",
        description = "Operate a running Regina broker through its HTTP API.",
        subcommands = {
            FailedJobCommands.Failed.class,
            FailedJobCommands.Retry.class,
            FailedJobCommands.Forget.class,
            FailedJobCommands.Flush.class,
            FailedJobCommands.PruneFailed.class,
            QueueCommands.Size.class,
            QueueCommands.Monitor.class,
            QueueCommands.Pause.class,
            QueueCommands.Resume.class,
            QueueCommands.Clear.class,
            ClusterCommand.class,
            WorkCommand.class,
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  ok",
            "  1  the operation failed, not found, or queue:monitor found an ALERT",
            "  2  usage error: bad arguments (also HTTP 400 from the broker),",
            "     or a refusal such as queue:clear without --force",
            "  3  the broker is unreachable",
            "queue:work runs until SIGTERM or Ctrl-C and then exits with 0 (2 on bad arguments).",
            "",
            "The broker's URL: --url, else $REGINA_URL, else " + ReginaCli.DEFAULT_URL + ".",
            "A bearer token (API authentication on): --token, else $REGINA_TOKEN.",
        })
public final class ReginaCli implements Callable<Integer> {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int UNREACHABLE = 3;
    static final String DEFAULT_URL = "http://127.0.0.1:6632";
    static final String URL_VARIABLE = "REGINA_URL";
    static final String TOKEN_VARIABLE = "REGINA_TOKEN";

    private final Map<String, String> env;

    @Spec
    CommandSpec spec;

    ReginaCli(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** Whether {@code args} are a CLI command rather than broker options. */
    public static boolean handles(String[] args) {
        return args != null && args.length > 0 && args[0] != null && args[0].startsWith("queue:");
    }

    /** Runs one command against the broker named by {@code --url} or {@code REGINA_URL}; the exit code. */
    public static int run(String... args) {
        return commandLine(System.getenv()).execute(args);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The command tree; {@code env} supplies {@code REGINA_URL}. Set out/err on the result to capture them. */
    static CommandLine commandLine(Map<String, String> env) {
        CommandLine commandLine = new CommandLine(new ReginaCli(env));
        commandLine.addSubcommand("queue:help", new CommandLine.HelpCommand());
        commandLine.setExecutionExceptionHandler((exception, command, parseResult) -> {
            PrintWriter err = command.getErr();
            if (exception instanceof CliException) {
                err.println(exception.getMessage());
                err.flush();
                return ((CliException) exception).exitCode();
            }
            err.println("Error: " + exception);
            err.flush();
            return FAILED;
        });
        return commandLine;
    }

    /** The URL used when a command has no {@code --url}. */
    String defaultUrl() {
        String url = env.get(URL_VARIABLE);
        return url == null || url.isBlank() ? DEFAULT_URL : url.trim();
    }

    /** The token used when a command has no {@code --token}; empty for none. */
    String defaultToken() {
        String token = env.get(TOKEN_VARIABLE);
        return token == null ? "" : token.trim();
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println("Missing command: give one of the queue:* commands below (queue:help COMMAND for its options).");
        spec.commandLine().usage(err);
        err.flush();
        return USAGE;
    }
}
