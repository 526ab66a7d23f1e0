#!/usr/bin/env python3
"""Generate samples/long.txt: a long, plain-text fictional ship's log.

Standard library only.  A seeded random generator picks from vocabulary and
sentence templates written for this script, so the output is deterministic and
original.  The result has no markup at all: one paragraph per line, with short
heading lines (part titles and day headings) between groups of paragraphs.

Run:  python3 samples/make_long.py     (writes samples/long.txt)
"""

import os
import random
from collections import deque

SEED = 20260417
TARGET_BYTES = 72 * 1024
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "long.txt")

SHIP = "Marigold"

CREW = {
    "Hesketh": ("the mate", "he"),
    "Orla": ("the bosun", "she"),
    "Young Pim": ("the ship's boy", "he"),
    "Mrs Varley": ("the cook", "she"),
    "Tobin": ("the carpenter", "he"),
    "Sabine": ("the navigator", "she"),
}

PLACES = [
    "Gannet Sound", "the Skerries of Lune", "Port Aubrey", "Cold Harbour",
    "the Weir Banks", "Saltcote", "Inishmara", "the Long Reach",
    "Brackwater Roads", "Kestle Bay", "the Needles of Orm", "Fennick Island",
    "the Grey Banks", "Whistling Point", "Hollin Cove", "Marrow Head",
]

WINDS = [
    "a light westerly", "a fresh breeze from the south-west",
    "a steady northerly", "a fitful easterly that came and went",
    "a gusty wind from the north-west", "a soft southerly",
    "almost no wind at all", "a hard blow from the west",
]

SKIES = [
    "a low grey overcast", "high thin cloud", "a clear pale sky",
    "heaped white cloud over the land", "a sky the colour of old pewter",
    "scattered showers marching in from the sea", "a bright hazy sunshine",
    "a ragged sky with blue between the clouds",
]

SEAS = [
    "a long easy swell", "a short steep chop", "a sea as flat as a millpond",
    "a confused sea off the headland", "a lumpy cross-swell",
    "a moderate sea and the odd white horse", "a sullen heaving swell",
]

BIRDS = [
    "a pair of gannets", "a raft of eider ducks", "a single great skua",
    "a cloud of kittiwakes", "three cormorants on a rock",
    "a heron standing in the shallows", "a flock of terns",
    "an albatross far out, which nobody else believed in",
]

CREATURES = [
    "a school of porpoises", "a seal that followed us for an hour",
    "a basking shark, slow and enormous", "a shoal of mackerel",
    "jellyfish in such numbers that the water looked thick",
    "a whale blowing a mile to leeward",
]

CARGO = [
    "salt", "slate", "barrels of tar", "sacks of oats", "lamp oil",
    "bolts of sailcloth", "crates of apples", "coils of rope",
    "bales of wool", "casks of cider", "roofing timber", "seed potatoes",
]

TASKS = [
    "tarring the shrouds", "splicing a new tail on the main sheet",
    "scraping weed off the waterline", "stitching a tear in the foresail",
    "pumping the bilge", "overhauling the windlass",
    "repainting the name on the transom", "checking every block and shackle",
    "airing the bedding on deck", "sorting the charts",
]

MEALS = [
    "pease pudding and salt pork", "fish stew with too much pepper",
    "fried herring and hard bread", "a mutton pie that fed all six of us",
    "porridge with treacle", "potatoes roasted in the galley ashes",
    "a thin soup, officially broth, which the rest of us called water",
    "boiled mussels gathered off the rocks that morning",
    "bread still warm from the galley stove",
]

OBJECTS = [
    "an old brass compass", "a bundle of letters tied with string",
    "a tin of buttons", "a carved wooden whistle", "a cracked barometer",
    "a jar of pickled onions", "a leather-bound almanac",
    "a lantern with a blue glass",
]

FEELINGS = [
    "a great contentment", "a kind of restlessness", "an unexpected homesickness",
    "a quiet pride in the ship", "a weariness that sleep did not cure",
    "a curious lightness of heart", "a certain unease",
]

TIMES = [
    "At first light", "Shortly after breakfast", "Towards noon",
    "In the early afternoon", "Late in the day", "At dusk",
    "During the middle watch", "Before the sun was fully up",
]

ADVERBS = ["steadily", "cautiously", "briskly", "slowly", "cheerfully",
           "patiently", "grimly", "easily"]


def article(word):
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


def cap(s):
    return s[0].upper() + s[1:]


class Log:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.place = "Port Aubrey"
        self.recent = deque(maxlen=22)

    def pick(self, seq):
        return self.r.choice(seq)

    def choose(self, maker, n):
        """Pick a template number for maker, avoiding ones used recently."""
        free = [t for t in range(n) if (maker, t) not in self.recent]
        t = self.r.choice(free) if free else self.r.randrange(n)
        self.recent.append((maker, t))
        return t

    def person(self):
        name = self.pick(sorted(CREW))
        role, pron = CREW[name]
        return name, role, pron

    # ---- sentence makers: each returns one complete sentence
    def s_weather(self):
        t = self.choose("weather", 4)
        if t == 0:
            return "%s we had %s and %s, with %s." % (
                self.pick(TIMES), self.pick(WINDS), self.pick(SKIES),
                self.pick(SEAS))
        if t == 1:
            return "All day there was %s under %s, and the %s made heavy going of it." % (
                self.pick(SEAS), self.pick(SKIES), SHIP)
        if t == 2:
            return "%s the glass began to %s, and %s said we should expect %s before morning." % (
                self.pick(TIMES), self.pick(["fall", "rise", "waver"]),
                self.pick(sorted(CREW)), self.pick(WINDS))
        return "We found %s beyond the point, and the %s rolled through it %s." % (
            self.pick(SEAS), SHIP, self.pick(ADVERBS))

    def s_course(self):
        dest = self.pick([p for p in PLACES if p != self.place])
        t = self.choose("course", 4)
        if t == 0:
            s = "We weighed anchor at %s and stood out towards %s under all plain sail." % (
                self.pick(["six", "seven", "a quarter past five", "half past eight", "noon"]), dest)
        elif t == 1:
            miles = self.r.randrange(8, 60)
            s = "By the log we made %d miles, which was %s for a ship of her age and temper." % (
                miles, "a fair run" if miles > 30 else "little enough")
        elif t == 2:
            s = "Sabine laid off a course to pass well clear of %s, where the charts are known to be wrong." % (
                self.pick(PLACES))
        else:
            s = "We tacked %s times to work up the channel towards %s, and every tack gained us less than the one before." % (
                self.pick(["four", "five", "seven", "a dozen"]), dest)
        self.place = dest
        return s

    def s_crew(self):
        name, role, pron = self.person()
        t = self.choose("crew", 8)
        if t == 0:
            return "%s spent the forenoon %s and would not be talked out of it." % (
                name, self.pick(TASKS))
        if t == 1:
            return "%s, %s, found %s wedged behind a locker, and nobody could say how it came there." % (
                name, role, self.pick(OBJECTS))
        if t == 2:
            return "%s was %s at the wheel, humming the same four bars of a song %s could not remember the rest of." % (
                name, self.pick(["quiet", "cheerful", "thoughtful", "sleepy"]), pron)
        if t == 3:
            other = self.pick([n for n in sorted(CREW) if n != name])
            return "%s and %s argued for most of the dog watch about %s, and settled nothing." % (
                name, other, self.pick([
                    "the proper way to coil a line", "whether fish can hear",
                    "the best route home", "the price of salt in Saltcote",
                    "who had eaten the last of the biscuits"]))
        if t == 4:
            return "%s took the first watch and, somewhere off the starboard bow, saw %s." % (
                name, self.pick(BIRDS + CREATURES))
        if t == 6:
            other = self.pick([n for n in sorted(CREW) if n != name])
            return "%s cut %s's hair on the hatch cover with the sail scissors, and the result was much admired by everyone except %s." % (
                name, other, other)
        if t == 7:
            return "%s has been teaching Young Pim to tie %s, with more patience than I would have had." % (
                "Orla" if name == "Young Pim" else name,
                self.pick(["a bowline one-handed", "a rolling hitch", "a sheet bend",
                           "a monkey's fist", "a Turk's head"]))
        return "I set %s to %s, which %s did %s and without complaint." % (
            name, self.pick(TASKS), pron, self.pick(ADVERBS))

    def s_nature(self):
        t = self.choose("nature", 3)
        if t == 0:
            return "We saw %s, and later %s." % (self.pick(BIRDS), self.pick(CREATURES))
        if t == 1:
            return "%s %s kept pace with us for a while and then turned away towards the land." % (
                self.pick(TIMES), self.pick(["a young seal", "a pod of porpoises",
                                             "a lone dolphin", "a big grey seal",
                                             "a string of shearwaters"]))
        return "The water near %s was %s, and so clear that we could see the weed moving on the stones below." % (
            self.pick(PLACES), self.pick(["green as bottle glass", "nearly black",
                                          "a milky blue", "the colour of strong tea"]))

    def s_cargo(self):
        t = self.choose("cargo", 3)
        c1, c2 = self.r.sample(CARGO, 2)
        if t == 0:
            return "At %s we landed the %s and took on %s in its place." % (
                self.place, c1, c2)
        if t == 1:
            return "The harbourmaster at %s counted our %s twice and still made it one short." % (
                self.place, c1)
        return "We are carrying %s forward and %s aft, and she sits a little by the head." % (
            c1, c2)

    def s_meal(self):
        t = self.choose("meal", 3)
        if t == 0:
            return "Supper was %s, eaten on deck while the light went." % self.pick(MEALS)
        if t == 1:
            return "Mrs Varley produced %s, and for once nobody had anything to say against it." % self.pick(MEALS)
        return "We had %s at noon and %s at night, and were glad of both." % (
            self.pick(MEALS), self.pick(MEALS))

    def s_reflect(self):
        t = self.choose("reflect", 7)
        if t == 0:
            return "I confess I felt %s as the land went down astern." % self.pick(FEELINGS)
        if t == 1:
            return "There is %s in keeping a log like this, writing each day down so that it cannot quite be lost." % (
                self.pick(["a comfort", "a discipline", "an odd vanity", "a small pleasure"]))
        if t == 2:
            return "It struck me, watching the wake, that a ship is only ever in one place for a moment, and that the rest of the time it is merely passing through."
        if t == 3:
            return "Whatever the charts say, %s is smaller than it looks from the sea and larger than it looks from the land." % (
                self.pick([p for p in PLACES if not p.startswith("the ")]))
        if t == 4:
            return "I thought for a long while about %s, and about how little of a voyage is ever written down." % (
                self.pick(["the people we left at Port Aubrey", "my father's old ship",
                           "the first time I saw the sea", "the winter we lost the topmast"]))
        if t == 5:
            return "The sea keeps no record of anyone who crosses it, which is perhaps why sailors keep such careful ones."
        return "If this log is ever read by a stranger, let it be known that %s." % self.pick([
            "the ship was better than her master", "we were mostly happy",
            "the cook deserved more thanks than she got", "the charts lied and we forgave them"])

    def s_dialogue(self):
        name, role, pron = self.person()
        t = self.choose("dialogue", 4)
        if t == 0:
            return "“We shall make %s before dark,” said %s, “if the wind holds and the tide is kind.”" % (
                self.pick(PLACES), name)
        if t == 1:
            return "“That %s will not last %s,” %s told me, and I am afraid %s is right." % (
                self.pick(["foresail", "topmast", "bilge pump", "windlass", "galley stove",
                           "old anchor chain", "patch on the mainsail"]),
                self.pick(["the summer", "another gale", "the month", "the voyage home"]),
                name, pron)
        if t == 2:
            return "When I asked %s what %s thought of the weather, %s only looked at the sky and said, “Wet.”" % (
                name, pron, pron)
        return "%s, %s, swears that the %s %s, and nobody has yet proved otherwise." % (
            name, role, SHIP, self.pick([
                "steers better under a full moon", "knows her own way home",
                "sulks whenever the cook goes ashore", "has a leak that moves about",
                "sails faster on a Sunday", "dislikes the colour green"]))

    def s_sounding(self):
        t = self.choose("sounding", 3)
        if t == 0:
            return "We sounded in %d fathoms over sand and shell, and let go the anchor in %d." % (
                self.r.randrange(9, 30), self.r.randrange(4, 9))
        if t == 1:
            return "The lead showed the bottom shoaling from %d fathoms to %d in less than a cable, so we went about smartly." % (
                self.r.randrange(12, 25), self.r.randrange(2, 5))
        return "At %s past %s the tide turned against us, and we anchored to wait for it." % (
            self.pick(["ten", "twenty", "a quarter", "half"]),
            self.pick(["two", "four", "six", "nine", "eleven"]))

    def s_port(self):
        t = self.choose("port", 3)
        if t == 0:
            return "%s is %s of perhaps %d houses, with %s." % (
                self.place, self.pick(["a grey stone village", "a straggling fishing village",
                                       "a neat little town", "a windswept huddle"]),
                self.r.randrange(20, 140), self.pick([
                    "a chapel, a smithy and a great many dogs",
                    "one inn and two rival bakers",
                    "a lifeboat house painted bright blue",
                    "a school, a post office and a very old church"]))
        if t == 1:
            return "Ashore at %s we bought %s and heard a good deal of gossip about %s." % (
                self.place, self.pick(["fresh water and eggs", "tobacco and candles",
                                       "a new lantern glass", "two sacks of flour"]),
                self.pick(["a wreck on the outer rocks", "the new lighthouse keeper",
                           "a wedding that nobody approved of", "the price of fish"]))
        return "The quay at %s was crowded with %s, and we had to lie three deep outside a fishing smack." % (
            self.place, self.pick(["herring boats", "idle carts", "children and gulls",
                                   "timber waiting for a ship"]))

    def s_long(self):
        """An occasional long word or a long hyphenated compound for line-breaking stress."""
        return self.pick([
            "Hesketh described the new rigging as thoroughly uncharacteristically overengineered, which from him is high praise.",
            "The harbourmaster's notice warned against the indiscriminate overprovisioning of outward-bound vessels, whatever that means.",
            "Sabine keeps a notebook of navigational counterintuitivenesses, and today she added three.",
            "Young Pim has learned the word incomprehensibilities and now uses it at every opportunity.",
            "Our twelve-year-old, salt-stained, much-mended, never-quite-dry foresail held together for another day.",
        ])

    def paragraph(self):
        makers = [self.s_weather, self.s_course, self.s_crew,
                  self.s_nature, self.s_cargo, self.s_meal, self.s_reflect,
                  self.s_dialogue, self.s_sounding, self.s_port]
        n = self.pick([1, 3, 4, 4, 5, 5, 6, 7, 9, 12])
        order = makers + [self.s_crew]
        self.r.shuffle(order)
        sentences = [make() for make in order[:n]]
        if self.r.random() < 0.12:
            sentences.insert(self.r.randrange(len(sentences) + 1), self.s_long())
        return " ".join(sentences)

    def heading(self, day):
        return "Day %d. %s" % (day, self.pick([
            "At anchor off %s", "Under way for %s", "Weather-bound at %s",
            "Running down to %s", "Alongside at %s", "In sight of %s",
        ]) % self.place)


def main():
    log = Log(SEED)
    parts = ["Part One: Outward Bound", "Part Two: Among the Islands",
             "Part Three: The Weather Turns", "Part Four: Homeward"]
    lines = ["The Log of the %s" % SHIP,
             "Being a record of a coasting voyage among the western islands, "
             "kept by her master. All names, places and events in it are invented."]
    size = sum(len(l.encode("utf-8")) + 1 for l in lines)
    day = 1
    part = 0
    while size < TARGET_BYTES:
        if (day - 1) % 12 == 0 and part < len(parts):
            lines.append(parts[part])
            part += 1
        lines.append(log.heading(day))
        for _ in range(log.r.randrange(2, 6)):
            lines.append(log.paragraph())
        day += 1
        size = sum(len(l.encode("utf-8")) + 1 for l in lines)
    lines.append("Here the log ends. The %s came home on the evening tide, "
                 "and the book was put away in the chart drawer with the rest." % SHIP)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d bytes, %d lines, %d days" % (
        os.path.basename(OUT), os.path.getsize(OUT), len(lines), day - 1))


if __name__ == "__main__":
    main()
