// Turn the Tide (Land unter), written from the rules text and cardtable's contract
// (docs/games/turn_the_tide.md): action ids, chance nodes and the observation are cardtable's.
"use strict";

const CHANCE = -1;
const TERMINAL = -2;
const HAND_SIZE = 12;

/** Half-lifebuoys shown on weather card n (cards 13-48 show a half, 25-36 a whole one). */
function halves(n) {
  return (n >= 13 && n <= 48 ? 1 : 0) + (n >= 25 && n <= 36 ? 1 : 0);
}

const ascending = (a, b) => a - b;

class TurnTheTide {
  constructor(players, options) {
    if (players < 3 || players > 5) throw new Error(`turn_the_tide needs 3-5 players, not ${players}`);
    this.n = players;
    this.recheck = options.recheck_after_elimination !== false;
    this.highestChooses = options.highest_chooses_tide === true;
    this.rounds = options.rounds == null ? players : options.rounds;
    if (this.rounds < 1 || this.rounds > players) throw new Error(`rounds must be 1..${players}`);
    const perSeat = (f) => Array.from({ length: players }, f);
    // Setup: the weather cards are dealt, twelve to each seat, seat 0 first.
    this.dealt = perSeat(() => []);
    this.phase = "deal";
    this.round = 0;
    this.handIndex = 0;
    this.hands = perSeat(() => []);
    this.lifebuoys = perSeat(() => 0);
    this.tide = perSeat(() => null);
    this.eliminated = perSeat(() => false);
    this.played = perSeat(() => []);
    this.commitments = perSeat(() => null);
    this.scores = perSeat(() => 0);
    this.revealedTide = [];
    this.tideDeck = new Array(12).fill(2);
    this.chooser = null; // the highest card, choosing a tide card (variant)
    this.second = null; // the second-highest card, which gets the other one
  }

  // --- what the protocol asks -------------------------------------------------------------

  currentPlayer() {
    if (this.phase === "deal" || this.phase === "tide") return CHANCE;
    if (this.phase === "over") return TERMINAL;
    if (this.phase === "choose_tide") return this.chooser;
    return this.commitments.findIndex((c, seat) => c === null && !this.eliminated[seat]);
  }

  isTerminal() {
    return this.phase === "over";
  }

  legalActions() {
    if (this.phase === "deal" || this.phase === "tide") return this.chanceOutcomes().map(([o]) => o);
    return this.decisions();
  }

  decisions() {
    if (this.phase === "play") return [...this.hands[this.currentPlayer()]];
    if (this.phase === "choose_tide") return [0, 1];
    return [];
  }

  /** [outcome, weight] pairs: undealt weather cards, or tide values with the copies left. */
  chanceOutcomes() {
    if (this.phase === "deal") {
      const out = new Set(this.dealt.flat());
      const cards = [];
      for (let card = 1; card <= 60; card++) if (!out.has(card)) cards.push([card, 1]);
      return cards;
    }
    if (this.phase === "tide") {
      const values = [];
      this.tideDeck.forEach((copies, i) => copies > 0 && values.push([i + 1, copies]));
      return values;
    }
    return [];
  }

  winners() {
    if (!this.isTerminal()) return [];
    const best = Math.max(...this.scores);
    return this.seats().filter((s) => this.scores[s] === best);
  }

  observation(seat) {
    return {
      seat,
      phase: this.phase,
      round: this.round,
      hand_index: this.handIndex,
      hand: [...this.hands[seat]],
      lifebuoys: [...this.lifebuoys],
      tide: [...this.tide],
      revealed_tide: [...this.revealedTide],
      eliminated: [...this.eliminated],
      played: this.played.map((cards) => [...cards]),
      committed: this.commitments.map((c) => c !== null),
      own_commitment: this.commitments[seat],
      scores: [...this.scores],
    };
  }

  apply(action) {
    if (!Number.isInteger(action) || !this.legalActions().includes(action)) {
      throw new Error(`illegal action ${JSON.stringify(action)} in phase ${this.phase}`);
    }
    if (this.phase === "deal") this.deal(action);
    else if (this.phase === "tide") this.drawTide(action);
    else if (this.phase === "play") this.commit(this.currentPlayer(), action);
    else this.chooseTide(action);
  }

  // --- the rules --------------------------------------------------------------------------

  seats() {
    return [...Array(this.n).keys()];
  }

  stillIn() {
    return this.seats().filter((s) => !this.eliminated[s]);
  }

  deal(card) {
    const seat = Math.floor(this.dealt.flat().length / HAND_SIZE);
    this.dealt[seat].push(card);
    if (this.dealt.flat().length === HAND_SIZE * this.n) this.startRound(0);
  }

  /** Round r: seat p holds the hand dealt to seat (p - r) mod n; lifebuoys from its halves. */
  startRound(round) {
    this.round = round;
    this.handIndex = 0;
    for (const p of this.seats()) {
      const hand = [...this.dealt[(((p - round) % this.n) + this.n) % this.n]].sort(ascending);
      this.hands[p] = hand;
      this.lifebuoys[p] = Math.floor(hand.reduce((sum, c) => sum + halves(c), 0) / 2);
      this.tide[p] = null;
      this.eliminated[p] = false;
      this.played[p] = [];
      this.commitments[p] = null;
    }
    this.tideDeck = new Array(12).fill(2);
    this.revealedTide = [];
    this.chooser = null;
    this.phase = "tide";
  }

  /** One hand, step 1: the top two tide cards are revealed (tide A, then tide B). */
  drawTide(value) {
    this.tideDeck[value - 1] -= 1;
    this.revealedTide.push(value);
    if (this.revealedTide.length === 2) this.phase = "play";
  }

  /** Step 2: every player still in chooses a card secretly; all reveal together. */
  commit(seat, card) {
    this.commitments[seat] = card;
    if (this.currentPlayer() !== -1) return;
    for (const p of this.stillIn()) {
      this.played[p].push(this.commitments[p]);
      this.hands[p] = this.hands[p].filter((c) => c !== this.commitments[p]);
    }
    // Step 3: the highest card takes the lower tide card, the second-highest the higher one.
    const [highest, second] = this.stillIn().sort((a, b) => this.commitments[b] - this.commitments[a]);
    if (this.highestChooses) {
      this.phase = "choose_tide";
      this.chooser = highest;
      this.second = second;
      return;
    }
    const [a, b] = this.revealedTide;
    this.tide[highest] = Math.min(a, b);
    this.tide[second] = Math.max(a, b);
    this.endHand();
  }

  /** Variant: the highest card chooses tide A (action 0) or tide B (action 1). */
  chooseTide(action) {
    const [a, b] = this.revealedTide;
    this.tide[this.chooser] = action === 0 ? a : b;
    this.tide[this.second] = action === 0 ? b : a;
    this.endHand();
  }

  /** Step 4: the seats still in the round whose showing tide is highest (ties: all of them). */
  highestTideLosers() {
    const showing = this.stillIn().filter((s) => this.tide[s] !== null);
    if (showing.length === 0) return [];
    const top = Math.max(...showing.map((s) => this.tide[s]));
    return showing.filter((s) => this.tide[s] === top);
  }

  /** Steps 4-8, then the next hand, the round's scoring or the end of the game. */
  endHand() {
    let roundOver = false;
    for (;;) {
      let anyEliminated = false;
      for (const seat of this.highestTideLosers()) {
        if (this.lifebuoys[seat] > 0) {
          this.lifebuoys[seat] -= 1;
        } else {
          // Step 5: no lifebuoy left to lose: out of the round, tide card face down.
          this.eliminated[seat] = true;
          this.tide[seat] = null;
          anyEliminated = true;
        }
      }
      if (this.stillIn().length <= 2) {
        roundOver = true; // step 6
        break;
      }
      if (!(this.recheck && anyEliminated)) break; // step 7
    }
    this.handIndex += 1;
    this.revealedTide = [];
    this.commitments = this.commitments.map(() => null);
    this.chooser = null;
    if (!roundOver && this.handIndex < HAND_SIZE) {
      this.phase = "tide";
      return;
    }
    this.scoreRound();
    if (this.round + 1 < this.rounds) this.startRound(this.round + 1);
    else this.phase = "over";
  }

  /** Scoring: lifebuoys for those still in, -1 if eliminated, +1 to the lowest tide still in. */
  scoreRound() {
    const stillIn = this.stillIn();
    for (const p of this.seats()) this.scores[p] += this.eliminated[p] ? -1 : this.lifebuoys[p];
    const withoutTide = stillIn.filter((s) => this.tide[s] === null);
    let bonus = withoutTide;
    if (withoutTide.length === 0) {
      const lowest = Math.min(...stillIn.map((s) => this.tide[s]));
      bonus = stillIn.filter((s) => this.tide[s] === lowest);
    }
    for (const p of bonus) this.scores[p] += 1;
  }
}

module.exports = { TurnTheTide };
