/**
 * Memory primitives shared by the transports: release/acquire access to words in FFM segments,
 * per-rank sequence flags on their own cache-line pairs, Linux futexes, doorbells and the
 * spin-yield-park idler that lets ranks outnumber cores without burning them.
 *
 * <p>Imports only {@code java.*}: no transport, no algorithm, no schedule. Run-time failures are
 * reported as return values here; the transports turn them into errors that name the peer and the
 * wait. Never {@code sun.misc.Unsafe}: FFM and VarHandles only.
 */
package io.railcoll.memory;
