// The cardtable conformance protocol (docs/conformance.md): one JSON request per line on standard
// input, one JSON answer per line on standard output, in order. `serve` runs that loop over the
// games given to it; each game is a class with currentPlayer(), isTerminal(), legalActions(),
// chanceOutcomes(), scores, winners(), observation(seat) and apply(action).
"use strict";

const readline = require("node:readline");

const PROTOCOL = 1;

/**
 * Answers requests until `quit` or the end of the input.
 * @param {object} implementation {name, games: {id: {create(players, options), fields?, moves?}}};
 *   `fields` lists the query fields the game answers (all of them when left out), and `moves`
 *   ({encode(id, chance), decode(move)}) gives the game its own move names.
 */
function serve(implementation) {
  let game = null;
  let entry = null;
  let players = 0;
  const answer = (request, body) => {
    process.stdout.write(JSON.stringify({ id: request.id, ...body }) + "\n");
  };
  const encode = (id, chance) => (entry.moves ? entry.moves.encode(id, chance) : id);
  // Every query field this loop answers, read from the current game.
  const readers = {
    current_player: () => game.currentPlayer(),
    is_terminal: () => game.isTerminal(),
    legal_actions: () => {
      const chance = game.currentPlayer() === -1;
      return game.legalActions().map((a) => encode(a, chance));
    },
    chance_outcomes: () => game.chanceOutcomes().map(([o, w]) => [encode(o, true), w]),
    scores: () => [...game.scores],
    winners: () => game.winners(),
    observations: () => [...Array(players).keys()].map((seat) => game.observation(seat)),
  };
  const handlers = {
    hello() {
      const games = {};
      for (const [id, g] of Object.entries(implementation.games)) {
        games[id] = { fields: g.fields || Object.keys(readers) };
      }
      return { type: "hello", protocol: PROTOCOL, name: implementation.name, games };
    },
    new_game(request) {
      entry = implementation.games[request.game];
      if (!entry) throw new Error(`unknown game ${request.game}`);
      game = entry.create(request.players, request.options || {});
      players = request.players;
      return { type: "ok" };
    },
    apply(request) {
      if (!game) throw new Error("no game: send new_game first");
      const move = entry.moves ? entry.moves.decode(request.action) : request.action;
      game.apply(move);
      return { type: "ok" };
    },
    query(request) {
      if (!game) throw new Error("no game: send new_game first");
      const state = { type: "state" };
      for (const field of request.fields) {
        if (!(field in readers)) throw new Error(`unknown field ${field}`);
        state[field] = readers[field]();
      }
      return state;
    },
    quit() {
      return { type: "ok" };
    },
  };

  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let request;
    try {
      request = JSON.parse(line);
    } catch (err) {
      answer({ id: null }, { type: "error", message: `bad JSON: ${err.message}` });
      return;
    }
    const handler = handlers[request.type];
    try {
      if (!handler) throw new Error(`unknown request type ${request.type}`);
      answer(request, handler(request));
    } catch (err) {
      answer(request, { type: "error", message: err.message });
    }
    if (request.type === "quit") lines.close();
  });
  lines.on("close", () => process.exit(0));
}

module.exports = { serve, PROTOCOL };
