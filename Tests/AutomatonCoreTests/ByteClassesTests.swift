import Testing
import AutomatonCore

@Suite struct ByteClassesTests {
    @Test func aRangeSplitsTheAlphabetInThree() {
        var set = ByteClassSet()
        set.add(UInt8(ascii: "a")...UInt8(ascii: "z"))
        let classes = set.byteClasses()
        #expect(classes.count == 3)
        #expect(classes.alphabetLength == 4)
        #expect(classes.eoi == 3)
        #expect(classes[0] == 0 && classes[0x60] == 0)
        #expect(classes[UInt8(ascii: "a")] == 1 && classes[UInt8(ascii: "q")] == 1 && classes[UInt8(ascii: "z")] == 1)
        #expect(classes[0x7B] == 2 && classes[0xFF] == 2)
        #expect(classes.representatives == [0, 0x61, 0x7B])
        #expect(classes.ranges(ofClass: 1) == [0x61...0x7A])
        #expect(classes.ranges(ofClass: 2) == [0x7B...0xFF])
    }

    @Test func rangesAtTheEdgesAddNoEmptyClass() {
        var set = ByteClassSet()
        set.add(0x00...0x10)
        set.add(0xF0...0xFF)
        let classes = set.byteClasses()
        #expect(classes.count == 3)
        #expect(classes.ranges(ofClass: 0) == [0x00...0x10])
        #expect(classes.ranges(ofClass: 1) == [0x11...0xEF])
        #expect(classes.ranges(ofClass: 2) == [0xF0...0xFF])
        var whole = ByteClassSet()
        whole.add(0x00...0xFF)
        #expect(whole.byteClasses().count == 1)
        #expect(ByteClassSet().byteClasses() == .single)
    }

    @Test func singleBytesAndUnion() {
        var digits = ByteClassSet()
        digits.add(UInt8(ascii: "0")...UInt8(ascii: "9"))
        var x = ByteClassSet()
        x.add(UInt8(ascii: "x"))
        digits.formUnion(x)
        let classes = digits.byteClasses()
        // below 0, 0-9, between 9 and x, x, above x
        #expect(classes.count == 5)
        #expect(classes[UInt8(ascii: "x")] == 3)
        #expect(classes.ranges(ofClass: 2) == [0x3A...0x77])
        #expect(classes.representatives == [0x00, 0x30, 0x3A, 0x78, 0x79])
    }

    @Test func overlappingRangesRefine() {
        var set = ByteClassSet()
        set.add(UInt8(ascii: "a")...UInt8(ascii: "m"))
        set.add(UInt8(ascii: "h")...UInt8(ascii: "z"))
        let classes = set.byteClasses()
        #expect(classes.count == 5)  // <a, a-g, h-m, n-z, >z
        #expect(classes.ranges(ofClass: 1) == [0x61...0x67])
        #expect(classes.ranges(ofClass: 2) == [0x68...0x6D])
        #expect(classes.ranges(ofClass: 3) == [0x6E...0x7A])
    }

    @Test func presets() {
        #expect(ByteClasses.singletons.count == 256)
        #expect(ByteClasses.singletons[0xAB] == 0xAB)
        #expect(ByteClasses.singletons.alphabetLength == 257)
        #expect(ByteClasses.single.count == 1)
        #expect(ByteClasses.single[0xAB] == 0)
        #expect(ByteClasses.single.ranges(ofClass: 0) == [0...255])
    }

    @Test func mapValidation() {
        var map = [UInt8](repeating: 0, count: 256)
        for b in 100..<256 { map[b] = 1 }
        let classes = ByteClasses(map: map)
        #expect(classes?.count == 2)
        #expect(classes?.classMap == map)
        #expect(ByteClasses(map: Array(map.prefix(255))) == nil, "wrong length")
        var skipping = map
        skipping[200] = 3
        #expect(ByteClasses(map: skipping) == nil, "class 2 never used before 3")
        var startsAtOne = map
        startsAtOne[0] = 1
        #expect(ByteClasses(map: startsAtOne) == nil, "classes must start at 0")
        var revisits = map
        revisits[255] = 0
        #expect(ByteClasses(map: revisits)?.count == 2, "a class may come back (non-contiguous)")
        #expect(ByteClasses(map: revisits)?.ranges(ofClass: 0) == [0...99, 255...255])
        #expect(ByteClasses(map: (0..<256).map { UInt8($0) }) == .singletons)
    }
}
