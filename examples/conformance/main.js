// Turn the Tide and goofspiel for the cardtable conformance harness:
//   cardtable conformance turn_the_tide --cmd "node examples/conformance/main.js" --players 4
// With --named-moves, goofspiel speaks its own move names ("point 7", "bid 5") instead of
// cardtable's ids; the harness translates with a map hook (examples/conformance/named_moves.py).
"use strict";

const { serve } = require("./protocol.js");
const { TurnTheTide } = require("./turn_the_tide.js");
const { Goofspiel } = require("./goofspiel.js");

const namedMoves = {
  encode: (id, chance) => `${chance ? "point" : "bid"} ${id + 1}`,
  decode: (move) => Number(String(move).split(" ")[1]) - 1,
};

serve({
  name: "cardtable JavaScript example",
  games: {
    turn_the_tide: { create: (n, o) => new TurnTheTide(n, o) },
    goofspiel: {
      create: (n, o) => new Goofspiel(n, o),
      moves: process.argv.includes("--named-moves") ? namedMoves : undefined,
    },
  },
});
