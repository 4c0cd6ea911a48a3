package dev.dockhand.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EditDistanceTest {
    @Test
    void countsInsertionsDeletionsAndSubstitutions() {
        assertEquals(0, EditDistance.between("help", "help"));
        assertEquals(2, EditDistance.between("hlep", "help"));
        assertEquals(3, EditDistance.between("kitten", "sitting"));
        assertEquals(4, EditDistance.between("", "quit"));
    }
}
