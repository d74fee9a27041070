package io.railcoll.bootstrap;

import java.io.IOException;

/** A line-oriented connection to a process manager (PMI-1): write a line, read a line by a deadline. One thread. */
interface LineChannel extends AutoCloseable {

    void write(String line) throws IOException;

    /** The next line without its newline; throws {@link java.net.SocketTimeoutException} when none came by then. */
    String readLine(long deadlineNs) throws IOException;

    /** What the channel is, for messages ("PMI_FD=6", "PMI_PORT=host:port"). */
    String describe();

    @Override
    void close();
}
