package dev.operatorstarter.sharding;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the assigner of a ring sees in its current leader term, for health details and the
 * operator endpoint (the part of the ring's status only the assigner knows). A snapshot: built from
 * local state, never from the API server.
 *
 * @param members every member whose Lease the assigner sees, by shard id, with the objects each holds
 * @param pendingDrains objects whose drain is requested and not yet acknowledged
 * @param oldestPendingDrain how long the oldest of them has waited; null when none does
 * @param unassigned primary objects without a token that wait for a member
 */
record AssignerStatus(List<RingStatus.MemberStatus> members, int pendingDrains, @Nullable Duration oldestPendingDrain,
        int unassigned) {

    AssignerStatus {
        members = List.copyOf(members);
    }
}
