package io.railcoll.cli;

import io.railcoll.launcher.VectorApiModule;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the ranks that railcoll's own commands start ({@code run}, {@code bench}, {@code app}, and {@code tune}'s
 * sweeps, so that it measures what those run) run with the Vector API's incubator module, so that reductions combine
 * with it at about the speed of a copy (decision 0233; the combiners are decision 0210's). On by default; the launcher drops the one warning line the JVM prints because of it
 * ({@link VectorApiModule}). Not added to a JVM without C2 ({@code -Xint}, {@code -XX:TieredStopAtLevel} below 4),
 * which would box every vector, nor to a runtime that lacks the module (a {@code jlink}ed one), nor twice. Under
 * mpirun or srun the user's own {@code java} command decides.
 */
final class VectorApiOption {
    @Option(names = "--vector-api", paramLabel = "on|off", converter = OnOff.class, defaultValue = "on",
            description = "Start every rank with the Vector API's incubator module (" + VectorApiModule.OPTION
                    + "), so reductions of 256 bytes and more combine at about copy speed once C2 has compiled them "
                    + "(until then, up to about a second per rank, slower); its one incubator warning is dropped from "
                    + "the ranks' output. off: the staged loops, quicker for a job of a few hundred reductions "
                    + "(default ${DEFAULT-VALUE}; never added to a JVM without C2 or to a runtime without the module).")
    String vectorApi = "on";

    /** The ranks' JVM options: {@code user}'s, after the module's option where it is to be added. */
    List<String> jvmOptions(List<String> user) {
        List<String> all = new ArrayList<>();
        if (vectorApi.equals("on") && VectorApiModule.available() && !VectorApiModule.requested(user)
                && !VectorApiModule.withoutC2(user)) {
            all.add(VectorApiModule.OPTION);
        }
        all.addAll(user);
        return List.copyOf(all);
    }

    /** {@code on} or {@code off}, as the CLI's other switches take them. */
    static final class OnOff implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String v = value.strip();
            if (!v.equals("on") && !v.equals("off")) {
                throw new TypeConversionException("'" + value + "' is not on or off");
            }
            return v;
        }
    }
}
