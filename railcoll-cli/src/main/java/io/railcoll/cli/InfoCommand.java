package io.railcoll.cli;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.ResourceTable;
import io.railcoll.topology.Placement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code railcoll info}: every algorithm, one line each, starting with its id; or, with {@code --resources}, paper
 * 002's resource table (connections, network volume, shared-memory traffic per node and phase) computed from the
 * algorithms' schedules for a placement.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "List every algorithm (id, collective, restrictions, cost formula, paper and section), or print resource tables.")
final class InfoCommand implements Callable<Integer> {

    @Option(names = "--resources", split = ",", description = "Print paper 002's Table 1 for these all-gather ids (comma-separated, or 'all' for every all-gather).")
    List<String> resources;

    @Option(names = "--placement", description = "Placement for --resources, e.g. 4x4 or 3,4,2 (default ${DEFAULT-VALUE}).", defaultValue = "4x4")
    String placement;

    @Option(names = "--rails", description = "Ports (rails) per rank for --resources (default ${DEFAULT-VALUE}).", defaultValue = "1")
    int rails;

    @Option(names = "--groups", description = "Master groups per node for allgather.mc-groups (default ${DEFAULT-VALUE}).", defaultValue = "4")
    int groups;

    @Override
    public Integer call() {
        AlgorithmCatalog catalog = AlgorithmCatalog.standard();
        if (resources == null) {
            for (Algorithm a : catalog.all()) {
                System.out.println(a.id() + "  " + a.summary());
            }
            return 0;
        }
        Placement p = Placement.parse(placement);
        List<ResourceTable> tables = new ArrayList<>();
        for (String id : resources) {
            if (id.equals("all")) {
                for (Algorithm a : catalog.forCollective(io.railcoll.schedule.Collective.ALLGATHER)) {
                    tables.add(ResourceTable.of(a, p, rails, groups));
                }
            } else {
                tables.add(ResourceTable.of(catalog.byId(id), p, rails, groups));
            }
        }
        for (ResourceTable t : tables) {
            System.out.println(t.format());
        }
        if (tables.size() > 1) {
            System.out.println(ResourceTable.compare(tables, 0));
        }
        return 0;
    }
}
