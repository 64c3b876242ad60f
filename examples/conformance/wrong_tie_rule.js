// A deliberately wrong Turn the Tide: its author misread rule step 4 ("ties: all tied players
// lose one") as "on a tie for the highest tide nobody loses a lifebuoy". The harness must catch it:
//   cardtable conformance turn_the_tide --cmd "node examples/conformance/wrong_tie_rule.js" --players 3
"use strict";

const { serve } = require("./protocol.js");
const { TurnTheTide } = require("./turn_the_tide.js");

class WrongTieRule extends TurnTheTide {
  highestTideLosers() {
    const losers = super.highestTideLosers();
    return losers.length === 1 ? losers : []; // the bug
  }
}

serve({
  name: "Turn the Tide with a wrong tie rule",
  games: {
    turn_the_tide: { create: (n, o) => new WrongTieRule(n, o) },
  },
});
