package io.railcoll.cli;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code railcoll info}: every algorithm, one line each, starting with its id. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "List every algorithm: id, then collective, restrictions, cost formula, paper and section.")
final class InfoCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        for (Algorithm a : AlgorithmCatalog.standard().all()) {
            System.out.println(a.id() + "  " + a.summary());
        }
        return 0;
    }
}
