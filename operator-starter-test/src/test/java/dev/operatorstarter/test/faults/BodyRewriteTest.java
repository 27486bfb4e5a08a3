package dev.operatorstarter.test.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodyRewriteTest {

    private static final String EVENTS = "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n";

    @Test
    void aCutKeepsTheFirstEventsThenHalfOfTheNextAndAborts() {
        BodyRewrite cut = BodyRewrite.of(Fault.cutAfterEvents(2));

        BodyRewrite.Step step = cut.accept(bytes(EVENTS));

        assertThat(text(step.write())).isEqualTo("{\"n\":1}\n{\"n\":2}\n{\"n");
        assertThat(step.declared()).as("the chunk claims the whole event").isEqualTo(EVENTS.length());
        assertThat(step.action()).isEqualTo(BodyRewrite.Action.ABORT);
    }

    @Test
    void eventsSplitAcrossPiecesAreCountedWhenTheirLineEnds() {
        BodyRewrite cut = BodyRewrite.of(Fault.cutAfterEvents(1));

        BodyRewrite.Step first = cut.accept(bytes("{\"n\":"));
        BodyRewrite.Step second = cut.accept(bytes("1}\n{\"n\":2"));
        BodyRewrite.Step third = cut.accept(bytes("}\n"));

        assertThat(text(first.write()) + text(second.write())).isEqualTo("{\"n\":1}\n");
        assertThat(second.action()).as("the next event is not complete yet").isEqualTo(BodyRewrite.Action.CONTINUE);
        assertThat(text(third.write())).isEqualTo("{\"n");
        assertThat(third.declared()).isEqualTo(8);
        assertThat(third.action()).isEqualTo(BodyRewrite.Action.ABORT);
    }

    @Test
    void aTruncationEndsTheMessageAfterHalfAnEvent() {
        BodyRewrite truncate = BodyRewrite.of(Fault.truncatedAfterEvents(1));

        BodyRewrite.Step step = truncate.accept(bytes(EVENTS));

        assertThat(text(step.write())).isEqualTo("{\"n\":1}\n{\"n");
        assertThat(step.action()).isEqualTo(BodyRewrite.Action.END);
    }

    @Test
    void aTruncatedListWithoutANewlineIsCutWhenTheBodyEnds() {
        BodyRewrite truncate = BodyRewrite.of(Fault.truncatedBody());

        BodyRewrite.Step piece = truncate.accept(bytes("{\"items\":[]}"));
        BodyRewrite.Step end = truncate.end();

        assertThat(piece.write()).isEmpty();
        assertThat(text(end.write())).isEqualTo("{\"item");
        assertThat(end.action()).isEqualTo(BodyRewrite.Action.END);
    }

    @Test
    void aBodyThatEndsBeforeTheCutPassesWhole() {
        BodyRewrite cut = BodyRewrite.of(Fault.cutAfterEvents(5));

        BodyRewrite.Step piece = cut.accept(bytes(EVENTS));
        BodyRewrite.Step end = cut.end();

        assertThat(text(piece.write())).isEqualTo(EVENTS);
        assertThat(end.write()).isEmpty();
        assertThat(end.action()).isEqualTo(BodyRewrite.Action.END);
    }

    @Test
    void aMalformedBodyNeedsNoByteFromTheServer() {
        BodyRewrite malform = BodyRewrite.of(Fault.malformedBody());

        BodyRewrite.Step start = malform.start();

        assertThat(text(start.write())).isEqualTo(Fault.Malform.BODY);
        assertThat(start.action()).isEqualTo(BodyRewrite.Action.END);
        assertThatThrownBy(() -> malform.accept(bytes(EVENTS))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aMalformedEventFollowsTheKeptOnes() {
        BodyRewrite malform = BodyRewrite.of(Fault.malformedAfterEvents(2));

        assertThat(malform.start().action()).isEqualTo(BodyRewrite.Action.CONTINUE);
        BodyRewrite.Step step = malform.accept(bytes(EVENTS));

        assertThat(text(step.write())).isEqualTo("{\"n\":1}\n{\"n\":2}\n" + Fault.Malform.BODY);
        assertThat(step.action()).isEqualTo(BodyRewrite.Action.END);
    }

    @Test
    void faultsThatLeaveTheBodyAloneHaveNoRewrite() {
        assertThat(BodyRewrite.of(Fault.none())).isNull();
        assertThat(BodyRewrite.of(Fault.hang())).isNull();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
