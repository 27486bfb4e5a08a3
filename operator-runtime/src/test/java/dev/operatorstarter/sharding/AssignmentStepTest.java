package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.sharding.AssignmentStep.Assign;
import dev.operatorstarter.sharding.AssignmentStep.CancelDrain;
import dev.operatorstarter.sharding.AssignmentStep.Child;
import dev.operatorstarter.sharding.AssignmentStep.LabelChild;
import dev.operatorstarter.sharding.AssignmentStep.Outcome;
import dev.operatorstarter.sharding.AssignmentStep.Owner;
import dev.operatorstarter.sharding.AssignmentStep.RequestDrain;
import dev.operatorstarter.sharding.AssignmentStep.Step;
import dev.operatorstarter.sharding.AssignmentStep.Write;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The assigner's decision table, row by row: a token never leaves a shard that may still be
 * reconciling except through its own acknowledgement, and every state has a way forward.
 */
class AssignmentStepTest {

    private static final Map<String, MemberState> STATES = Map.of("a", MemberState.READY, "b", MemberState.READY,
            "x", MemberState.EXPIRED, "u", MemberState.UNCERTAIN, "d", MemberState.DEAD, "o", MemberState.ORPHANED);
    private static final Child CONTENT = new Child("configmaps", "ns", "site-content", null);
    private static final Child SERVERS = new Child("deployments.apps", "ns", "site", "a");
    private static final Child SERVICE = new Child("services", "ns", "site", "d");

    @Test
    void aTokenlessOwnerIsGivenTheRingsShardAfterItsChildrenWithTheirCounts() {
        Step step = next(new Owner(null, false, false), List.of(CONTENT, SERVERS, SERVICE), "b");

        assertThat(step.outcome()).isEqualTo(Outcome.ASSIGNED);
        assertThat(step.writes()).containsExactly(new LabelChild(CONTENT, "b"), new LabelChild(SERVERS, "b"),
                new LabelChild(SERVICE, "b"), new Assign("b", "configmaps=1,deployments.apps=1,services=1"));
    }

    @Test
    void aTokenlessOwnerWithoutChildrenCarriesNoArrivalAndAStaleDrainIsClearedByTheAssignment() {
        assertThat(next(new Owner(null, true, false), List.of(), "a").writes()).containsExactly(new Assign("a", null));
    }

    @Test
    void withNoMemberInTheRingATokenlessOwnerWaits() {
        Step step = AssignmentStep.next(new Owner(null, false, false), List.of(CONTENT), Optional.empty(), STATES::get);

        assertThat(step).isEqualTo(Step.waiting(Outcome.WAITING_FOR_A_MEMBER));
    }

    @Test
    void anOwnerOfADeadOrOrphanedOrUnknownShardIsForcedToTheRingsShardDrainOrNot() {
        for (String gone : List.of("d", "o", "never-heard-of")) {
            for (boolean drain : List.of(false, true)) {
                Step step = next(new Owner(gone, drain, false), List.of(SERVICE), "a");
                assertThat(step.outcome()).as(gone).isEqualTo(Outcome.MOVED);
                assertThat(step.writes()).as(gone).containsExactly(new LabelChild(SERVICE, "a"),
                        new Assign("a", "services=1"));
            }
        }
        assertThat(next(new Owner("d", false, true), List.of(), "a").outcome()).as("deleting: finished elsewhere")
                .isEqualTo(Outcome.MOVED);
    }

    @Test
    void anOwnerWhereTheRingWantsItGetsItsStrayChildrenAndNothingElse() {
        Step step = next(new Owner("a", false, false), List.of(CONTENT, SERVERS, SERVICE), "a");

        assertThat(step.outcome()).isEqualTo(Outcome.CHILDREN_LABELLED);
        assertThat(step.writes()).containsExactly(new LabelChild(CONTENT, "a"), new LabelChild(SERVICE, "a"));
        assertThat(next(new Owner("a", false, false), List.of(SERVERS), "a")).isEqualTo(Step.waiting(Outcome.SETTLED));
    }

    @Test
    void aDrainIsCancelledWhenTheRingGivesTheOwnerBackBeforeTheAck() {
        assertThat(next(new Owner("a", true, false), List.of(CONTENT), "a"))
                .isEqualTo(new Step(List.of(new CancelDrain()), Outcome.DRAIN_CANCELLED));
    }

    @Test
    void anOwnerOfAReadyShardTheRingMovesIsOnlyAskedToDrainAndItsChildrenStay() {
        Step step = next(new Owner("a", false, false), List.of(CONTENT, SERVERS), "b");

        assertThat(step).isEqualTo(new Step(List.of(new RequestDrain()), Outcome.DRAIN_REQUESTED));
        assertThat(next(new Owner("a", true, false), List.of(CONTENT, SERVERS), "b"))
                .isEqualTo(Step.waiting(Outcome.WAITING_FOR_THE_ACK));
    }

    @Test
    void anOwnerOfAnExpiredOrUncertainShardWaitsForTheTakeWhateverTheRingSays() {
        for (String late : List.of("x", "u")) {
            assertThat(next(new Owner(late, false, false), List.of(CONTENT), "a"))
                    .isEqualTo(Step.waiting(Outcome.WAITING_FOR_THE_TAKE));
            assertThat(AssignmentStep.next(new Owner(late, false, false), List.of(CONTENT), Optional.empty(), STATES::get))
                    .as("with an empty ring too").isEqualTo(Step.waiting(Outcome.WAITING_FOR_THE_TAKE));
        }
    }

    @Test
    void anOwnerBeingDeletedByALiveShardStaysThereWithItsChildren() {
        Step step = next(new Owner("a", true, true), List.of(CONTENT, SERVERS), "b");

        assertThat(step.outcome()).isEqualTo(Outcome.DELETING);
        assertThat(step.writes()).containsExactly(new LabelChild(CONTENT, "a"), new CancelDrain());
    }

    /** Over every combination: no write ever moves a token or a child away from a live shard. */
    @Test
    void noWriteEverTakesAnOwnerOrAChildAwayFromALiveShard() {
        List<String> tokens = Arrays.asList(null, "a", "b", "x", "u", "d", "o", "unknown");
        for (String token : tokens) {
            for (String desired : Arrays.asList(null, "a", "b")) {
                for (boolean drain : List.of(false, true)) {
                    for (boolean deleting : List.of(false, true)) {
                        Step step = AssignmentStep.next(new Owner(token, drain, deleting), List.of(CONTENT, SERVERS, SERVICE),
                                Optional.ofNullable(desired), STATES::get);
                        boolean liveHolder = token != null && STATES.containsKey(token) && STATES.get(token).live();
                        for (Write write : step.writes()) {
                            if (write instanceof Assign assign) {
                                assertThat(liveHolder).as("%s: Assign %s while %s is live", step, assign, token).isFalse();
                            }
                            if (write instanceof LabelChild label && liveHolder) {
                                assertThat(label.shard()).as("%s: a child of a live shard's owner", step).isEqualTo(token);
                            }
                        }
                        if (step.outcome() == Outcome.SETTLED || step.outcome().name().startsWith("WAITING")) {
                            assertThat(step.writes()).as("%s: waits without writing", step).isEmpty();
                        } else if (step.outcome() != Outcome.DELETING) {
                            assertThat(step.writes()).as("%s: a change is written", step).isNotEmpty();
                        }
                    }
                }
            }
        }
    }

    private static Step next(Owner owner, List<Child> children, String desired) {
        return AssignmentStep.next(owner, children, Optional.of(desired), STATES::get);
    }
}
