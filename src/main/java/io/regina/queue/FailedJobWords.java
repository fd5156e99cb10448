package io.regina.queue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How the failed-jobs search cuts text into words, the same for a row's error and payload and for a
 * query. A word is a run of letters and digits; words joined by {@code . - _ @ + /} also form one
 * compound word ({@code ada@example.com}, {@code order-424242}, {@code java.net.SocketTimeoutException}),
 * indexed as a whole and by its parts. Words compare ignoring case and are cut to
 * {@value #MAX_LENGTH} characters, so that a payload's long blobs cost one bounded entry each.
 */
final class FailedJobWords {

    static final int MAX_LENGTH = 64;

    private FailedJobWords() {
    }

    /** The words a row is found by, some maybe twice: every word, and every compound word as a whole too. */
    static void indexed(String text, Consumer<String> into) {
        cut(text, into, true);
    }

    /**
     * The words a query asks for, each to be matched whole (a compound word as the compound, not by
     * its parts); a row matches when it holds all of them. Empty when the text holds no word.
     */
    static List<String> query(String text) {
        Set<String> words = new LinkedHashSet<>();
        cut(text, words::add, false);
        return new ArrayList<>(words);
    }

    /** Whether one of the words {@link #indexed} cuts from the text is this word. */
    static boolean holds(String text, String word) {
        boolean[] found = {false};
        cut(text, each -> found[0] |= each.equals(word), true);
        return found[0];
    }

    private static void cut(String original, Consumer<String> into, boolean withParts) {
        if (original == null) {
            return;
        }
        // Lower-cased once as a whole: a word is then a plain substring.
        String text = original.toLowerCase(Locale.ROOT);
        int length = text.length();
        int i = 0;
        while (i < length) {
            while (i < length && !isWordChar(text.charAt(i))) {
                i++;
            }
            int start = i;
            int end = i;
            int parts = 0;
            while (i < length && (isWordChar(text.charAt(i)) || isJoiner(text.charAt(i)))) {
                int part = i;
                while (i < length && isWordChar(text.charAt(i))) {
                    i++;
                }
                if (i > part) {
                    parts++;
                    end = i;
                    if (withParts) {
                        into.accept(word(text, part, i));
                    }
                }
                while (i < length && isJoiner(text.charAt(i))) {
                    i++;
                }
            }
            if (parts > 1 || (!withParts && parts == 1)) {
                into.accept(word(text, start, end));
            }
        }
    }

    private static String word(String text, int start, int end) {
        return text.substring(start, Math.min(end, start + MAX_LENGTH));
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c);
    }

    private static boolean isJoiner(char c) {
        return c == '.' || c == '-' || c == '_' || c == '@' || c == '+' || c == '/';
    }
}
