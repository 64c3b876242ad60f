// Goofspiel, written from cardtable's contract (docs/games/goofspiel.md): OpenSpiel's ids, where a
// card of value v (a point card or a bid) is id v - 1.
"use strict";

const CHANCE = -1;
const TERMINAL = -2;

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);

class Goofspiel {
  constructor(players, options) {
    if (players !== 2) throw new Error(`goofspiel is for 2 players, not ${players}`);
    this.N = options.num_cards == null ? 13 : options.num_cards;
    if (!Number.isInteger(this.N) || this.N < 1 || this.N > 60) throw new Error("num_cards must be 1..60");
    this.turn = 0;
    this.pointCard = null;
    this.remainingPoints = range(this.N);
    this.hands = [range(this.N), range(this.N)];
    this.points = [0, 0];
    this.bids = [];
    this.pointHistory = [];
    this.pending = [null, null];
  }

  currentPlayer() {
    if (this.isTerminal()) return TERMINAL;
    if (this.pointCard === null) return CHANCE;
    return this.pending[0] === null ? 0 : 1;
  }

  isTerminal() {
    return this.turn === this.N;
  }

  legalActions() {
    const player = this.currentPlayer();
    if (player === TERMINAL) return [];
    if (player === CHANCE) return this.remainingPoints.map((v) => v - 1);
    return this.hands[player].map((v) => v - 1);
  }

  chanceOutcomes() {
    if (this.currentPlayer() !== CHANCE) return [];
    return this.remainingPoints.map((v) => [v - 1, 1]);
  }

  get scores() {
    return [...this.points];
  }

  winners() {
    if (!this.isTerminal()) return [];
    const best = Math.max(...this.points);
    return [0, 1].filter((s) => this.points[s] === best);
  }

  observation(seat) {
    return {
      seat,
      turn: this.turn,
      point_card: this.pointCard,
      remaining_points: [...this.remainingPoints],
      hands: this.hands.map((h) => [...h]),
      points: [...this.points],
      bids: this.bids.map((b) => [...b]),
      point_history: [...this.pointHistory],
      committed: this.pending.map((b) => b !== null),
      own_bid: this.pending[seat],
    };
  }

  apply(action) {
    if (!Number.isInteger(action) || !this.legalActions().includes(action)) {
      throw new Error(`illegal action ${JSON.stringify(action)}`);
    }
    const value = action + 1;
    const player = this.currentPlayer();
    if (player === CHANCE) {
      this.pointCard = value;
      this.remainingPoints = this.remainingPoints.filter((v) => v !== value);
      return;
    }
    this.pending[player] = value;
    if (player === 0) return;
    this.playTurn(this.pointCard, this.pending[0], this.pending[1]);
    // With exactly one turn left it is played at once: the last point card, the last bids.
    if (this.N - this.turn === 1 && this.turn > 0) {
      const last = this.remainingPoints[0];
      this.remainingPoints = [];
      this.playTurn(last, this.hands[0][0], this.hands[1][0]);
    }
  }

  /** Both bids are revealed; the higher one wins the point card, equal bids win nothing. */
  playTurn(pointCard, bid0, bid1) {
    if (bid0 > bid1) this.points[0] += pointCard;
    else if (bid1 > bid0) this.points[1] += pointCard;
    this.hands[0] = this.hands[0].filter((v) => v !== bid0);
    this.hands[1] = this.hands[1].filter((v) => v !== bid1);
    this.bids.push([bid0, bid1]);
    this.pointHistory.push(pointCard);
    this.turn += 1;
    this.pointCard = null;
    this.pending = [null, null];
  }
}

module.exports = { Goofspiel };
