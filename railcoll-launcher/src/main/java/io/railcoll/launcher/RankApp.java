package io.railcoll.launcher;

import io.railcoll.Communicator;

import java.util.List;

/**
 * A program that runs on every rank of a job launched by {@code bin/railcoll run}. Implementations have a public
 * no-argument constructor; {@link RankMain} builds the communicator, calls {@link #run} and closes it.
 */
public interface RankApp {
    void run(Communicator comm, List<String> args) throws Exception;
}
