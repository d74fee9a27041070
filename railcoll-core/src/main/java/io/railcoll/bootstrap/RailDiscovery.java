package io.railcoll.bootstrap;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which local addresses carry this rank's rails, from {@code RAILCOLL_RAILS} and the host's interfaces.
 *
 * <p>{@code RAILCOLL_RAILS} is a comma-separated list of terms, one rail per selected address, in the order of the
 * terms (every rank of a job must select the same number of rails, rail r of one rank meeting rail r of the others):
 * <ul>
 *   <li>an address, {@code 10.1.0.5} or {@code fd00::5}: that address (railcoll's launcher gives these);</li>
 *   <li>an interface name, {@code eth1}, or a glob, {@code ib*}: the interface's first IPv4 address (else its first
 *       IPv6 address that is not link-local); a glob selects every matching interface, by name;</li>
 *   <li>a CIDR block, {@code 10.1.0.0/16}: every interface address inside it, by interface name;</li>
 *   <li>{@code auto}: every interface that is up and not {@linkplain #isVirtual virtual} or loopback, its first
 *       address as above; loopback only when the host has nothing else (a single-host job);</li>
 *   <li>an exclusion, {@code ^docker0}, {@code ^veth*} or {@code ^172.17.0.0/16}: leaves out what it names, from
 *       the whole list. A list of exclusions only means {@code auto} minus them.</li>
 * </ul>
 * Unset or empty: no rails chosen here ({@code Railcoll.init} takes the address that routes toward the rendezvous,
 * one rail). A term that selects nothing is an error naming it and the interfaces there are, so a typo is never a
 * job that quietly runs on fewer rails. Stateless.
 */
public final class RailDiscovery {
    /** Interfaces made by container, VM and overlay software: never a rail unless named explicitly. */
    private static final Pattern VIRTUAL = Pattern.compile(
            "docker\\d*|virbr.*|veth.*|br-.*|cni.*|flannel.*|cali.*|weave.*|vxlan.*|kube-.*|podman.*|lxcbr.*|lxdbr.*"
                    + "|vnet.*|tun\\d*|tap\\d*|zt.*|tailscale.*|wg\\d*|dummy.*|virtual.*|vmnet.*|vboxnet.*");

    /** One interface as seen for selection: name, up, loopback, and its addresses with prefix lengths. */
    public record Interface(String name, boolean up, boolean loopback, List<Address> addresses) {
        public Interface {
            addresses = List.copyOf(addresses);
        }
    }

    /** An interface address and its network prefix length. */
    public record Address(InetAddress address, int prefixLength) {
    }

    private RailDiscovery() {
    }

    /**
     * True for interfaces no cluster carries its traffic on by default: Docker's and libvirt's bridges, veth pairs,
     * Kubernetes CNI and overlay devices, VPN tunnels, dummies. The list MPI users end up writing into their
     * exclude lists after the first hang.
     */
    public static boolean isVirtual(String interfaceName) {
        return VIRTUAL.matcher(interfaceName).matches();
    }

    /** The rail addresses {@code RAILCOLL_RAILS} selects on this host (empty when it is unset or blank). */
    public static List<InetAddress> fromSpec(String spec) {
        if (spec == null || spec.isBlank()) {
            return List.of();
        }
        List<String> terms = terms(spec);
        // Plain addresses only (what railcoll's launcher and testbed set): no need to look at the interfaces.
        if (terms.stream().allMatch(RailDiscovery::isAddressLiteral)) {
            return select(spec, List.of());
        }
        return select(spec, localInterfaces());
    }

    /**
     * The addresses {@code spec} selects among {@code interfaces}.
     *
     * @throws IllegalArgumentException naming the term that selects nothing or is malformed
     */
    public static List<InetAddress> select(String spec, List<Interface> interfaces) {
        List<Interface> ifs = new ArrayList<>(interfaces);
        ifs.sort(Comparator.comparing(Interface::name));
        List<String> includes = new ArrayList<>();
        List<String> excludes = new ArrayList<>();
        for (String t : terms(spec)) {
            if (t.startsWith("^")) {
                if (t.length() == 1) {
                    throw new IllegalArgumentException("RAILCOLL_RAILS: '^' must be followed by an interface, a glob or a CIDR block");
                }
                excludes.add(t.substring(1));
            } else {
                includes.add(t);
            }
        }
        if (includes.isEmpty()) {
            includes.add("auto");
        }
        Set<InetAddress> chosen = new LinkedHashSet<>();
        for (String term : includes) {
            List<InetAddress> selected = selectTerm(term, ifs);
            selected.removeIf(a -> excludedBy(a, excludes, ifs));
            if (selected.isEmpty()) {
                throw new IllegalArgumentException("RAILCOLL_RAILS: '" + term + "' selects no address"
                        + (excludes.isEmpty() ? "" : " (after excluding " + String.join(", ", excludes) + ")")
                        + "; this host has " + describe(ifs));
            }
            chosen.addAll(selected);
        }
        return List.copyOf(chosen);
    }

    private static List<InetAddress> selectTerm(String term, List<Interface> ifs) {
        List<InetAddress> out = new ArrayList<>();
        if (term.equalsIgnoreCase("auto")) {
            for (Interface i : ifs) {
                if (i.up() && !i.loopback() && !isVirtual(i.name())) {
                    addPreferred(i, out);
                }
            }
            if (out.isEmpty()) {
                // A host with nothing but loopback (and virtual bridges): a single-host job runs over loopback.
                for (Interface i : ifs) {
                    if (i.up() && i.loopback()) {
                        addPreferred(i, out);
                    }
                }
            }
            return out;
        }
        if (term.contains("/")) {
            Cidr block = Cidr.parse(term);
            for (Interface i : ifs) {
                for (Address a : i.addresses()) {
                    if (block.contains(a.address())) {
                        out.add(a.address());
                    }
                }
            }
            return out;
        }
        if (isAddressLiteral(term)) {
            out.add(literal(term));
            return out;
        }
        Pattern name = glob(term);
        boolean found = false;
        for (Interface i : ifs) {
            if (name.matcher(i.name()).matches()) {
                found = true;
                if (!i.up()) {
                    if (!term.contains("*")) {
                        throw new IllegalArgumentException("RAILCOLL_RAILS: interface " + i.name() + " is down");
                    }
                    continue;
                }
                addPreferred(i, out);
            }
        }
        if (!found && !term.matches("[A-Za-z0-9_.:@*-]+")) {
            throw new IllegalArgumentException("RAILCOLL_RAILS: '" + term + "' is neither an address, a CIDR block nor"
                    + " an interface name");
        }
        return out;
    }

    /** An interface's first IPv4 address, else its first IPv6 address that is not link-local. */
    private static void addPreferred(Interface i, List<InetAddress> out) {
        for (Address a : i.addresses()) {
            if (a.address() instanceof Inet4Address) {
                out.add(a.address());
                return;
            }
        }
        for (Address a : i.addresses()) {
            if (!a.address().isLinkLocalAddress()) {
                out.add(a.address());
                return;
            }
        }
    }

    private static boolean excludedBy(InetAddress a, List<String> excludes, List<Interface> ifs) {
        for (String e : excludes) {
            if (e.contains("/")) {
                if (Cidr.parse(e).contains(a)) {
                    return true;
                }
            } else if (isAddressLiteral(e)) {
                if (literal(e).equals(a)) {
                    return true;
                }
            } else {
                Pattern name = glob(e);
                for (Interface i : ifs) {
                    if (name.matcher(i.name()).matches() && i.addresses().stream().anyMatch(x -> x.address().equals(a))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** {@code 10.1.0.5 (eth1)}, or the address alone when no local interface holds it. */
    public static String describe(InetAddress address) {
        try {
            NetworkInterface i = NetworkInterface.getByInetAddress(address);
            return address.getHostAddress() + (i == null ? "" : " (interface " + i.getName() + ")");
        } catch (SocketException e) {
            return address.getHostAddress();
        }
    }

    /** This host's interfaces, as {@link #select} sees them. */
    public static List<Interface> localInterfaces() {
        List<Interface> out = new ArrayList<>();
        try {
            var all = NetworkInterface.getNetworkInterfaces();
            while (all != null && all.hasMoreElements()) {
                NetworkInterface n = all.nextElement();
                List<Address> addrs = new ArrayList<>();
                for (InterfaceAddress a : n.getInterfaceAddresses()) {
                    if (a.getAddress() != null) {
                        addrs.add(new Address(a.getAddress(), a.getNetworkPrefixLength()));
                    }
                }
                out.add(new Interface(n.getName(), n.isUp(), n.isLoopback(), addrs));
            }
        } catch (SocketException e) {
            throw new IllegalStateException("RAILCOLL_RAILS: cannot list this host's network interfaces: " + e.getMessage(), e);
        }
        return out;
    }

    private static String describe(List<Interface> ifs) {
        if (ifs.isEmpty()) {
            return "no network interface";
        }
        StringBuilder sb = new StringBuilder();
        for (Interface i : ifs) {
            sb.append(sb.isEmpty() ? "" : ", ").append(i.name());
            if (!i.up()) {
                sb.append(" (down)");
            } else if (isVirtual(i.name())) {
                sb.append(" (virtual)");
            }
            for (Address a : i.addresses()) {
                if (!a.address().isLinkLocalAddress()) {
                    sb.append(' ').append(a.address().getHostAddress()).append('/').append(a.prefixLength());
                }
            }
        }
        return sb.toString();
    }

    private static List<String> terms(String spec) {
        List<String> out = new ArrayList<>();
        for (String t : spec.split(",")) {
            if (!t.isBlank()) {
                out.add(t.strip());
            }
        }
        return out;
    }

    private static Pattern glob(String g) {
        return Pattern.compile(Pattern.quote(g).replace("*", "\\E.*\\Q"));
    }

    /** An IPv4 dotted quad or an IPv6 literal: never looked up in DNS. */
    static boolean isAddressLiteral(String s) {
        return s.matches("\\d{1,3}(\\.\\d{1,3}){3}") || (s.contains(":") && s.matches("[0-9A-Fa-f:.%a-z0-9]+"));
    }

    private static InetAddress literal(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("RAILCOLL_RAILS: '" + s + "' is not an address", e);
        }
    }

    /** An address block, {@code 10.1.0.0/16} or {@code fd00::/8}. */
    record Cidr(byte[] network, int prefixLength) {
        static Cidr parse(String s) {
            int slash = s.indexOf('/');
            String addr = s.substring(0, slash);
            if (!isAddressLiteral(addr)) {
                throw new IllegalArgumentException("RAILCOLL_RAILS: '" + s + "' is not a CIDR block (address/prefix)");
            }
            int prefix;
            try {
                prefix = Integer.parseInt(s.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("RAILCOLL_RAILS: '" + s + "' has no prefix length after '/'");
            }
            byte[] bytes = literal(addr).getAddress();
            if (prefix < 0 || prefix > bytes.length * 8) {
                throw new IllegalArgumentException("RAILCOLL_RAILS: '" + s + "': prefix length must be 0.." + bytes.length * 8);
            }
            return new Cidr(bytes, prefix);
        }

        boolean contains(InetAddress a) {
            byte[] b = a.getAddress();
            if (b.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefixLength; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((b[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            try {
                return InetAddress.getByAddress(network).getHostAddress().toLowerCase(Locale.ROOT) + "/" + prefixLength;
            } catch (UnknownHostException e) {
                return "?/" + prefixLength;
            }
        }
    }
}
