package io.railcoll.select;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RangeTest {
    @Test
    void parsesEveryForm() {
        assertEquals(Range.exactly(4), Range.parse("4"));
        assertEquals(new Range(1, 65536), Range.parse("1..64k"));
        assertEquals(new Range(4096, Long.MAX_VALUE), Range.parse("4k.."));
        assertEquals(new Range(0, 256), Range.parse("..256"));
        assertEquals(Range.ANY, Range.parse("*"));
        assertEquals(new Range(1L << 20, 3L << 30), Range.parse("1m..3g"));
    }

    @Test
    void printsWhatItParses() {
        for (String s : new String[] {"4", "1..64k", "4k..", "..256", "*", "1m..3g", "1000..1023"}) {
            assertEquals(s, Range.parse(s).toString());
            assertEquals(Range.parse(s), Range.parse(Range.parse(s).toString()));
        }
    }

    @Test
    void boundsAreInclusive() {
        Range r = Range.parse("16..64");
        assertTrue(r.contains(16));
        assertTrue(r.contains(64));
        assertFalse(r.contains(15));
        assertFalse(r.contains(65));
    }

    @Test
    void rejectsWhatIsNotARange() {
        for (String s : new String[] {"", "x", "4..2", "-1", "1.5", "k", "1..2..3"}) {
            assertThrows(IllegalArgumentException.class, () -> Range.parse(s), s);
        }
    }
}
