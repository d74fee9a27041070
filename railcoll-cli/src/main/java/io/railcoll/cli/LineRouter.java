package io.railcoll.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * A print stream for a job's forwarded output that hands every complete line to a handler; lines the handler
 * does not consume go on to {@code next}. Used to turn rank 0's progress lines into a progress bar.
 */
final class LineRouter extends OutputStream {
    private final Predicate<String> handler;
    private final PrintStream next;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    private LineRouter(Predicate<String> handler, PrintStream next) {
        this.handler = handler;
        this.next = next;
    }

    static PrintStream printStream(Predicate<String> handler, PrintStream next) {
        return new PrintStream(new LineRouter(handler, next), true, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            String s = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (!handler.test(s)) {
                next.println(s);
            }
        } else {
            line.write(b);
        }
    }
}
