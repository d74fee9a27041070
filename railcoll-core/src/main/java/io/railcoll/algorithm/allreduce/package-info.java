/**
 * All-reduce algorithms ({@link io.railcoll.schedule.Collective#ALLREDUCE}): schedules whose {@code Reduce} steps
 * combine every rank's vector with the call's operator. Each one gives every rank the same bits: either every rank
 * computes the same combinations in the same order (recursive doubling), or each part of the vector is combined
 * once and then copied to everyone (ring).
 */
package io.railcoll.algorithm.allreduce;
