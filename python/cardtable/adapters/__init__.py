"""Adapters to the usual learning libraries, each an optional extra of the package.

- :mod:`cardtable.adapters.pettingzoo`: ``env(game_id, players=...)``, a PettingZoo AEC
  environment (``pip install "cardtable[pettingzoo]"``).
- :mod:`cardtable.adapters.gymnasium`: ``make_env(game_id, players=..., seat=0)``, a Gymnasium
  environment for one seat against built-in bots, and ``make_vec_env(game_id, num_envs,
  players=...)``, a ``gymnasium.vector.VectorEnv`` of many games (``pip install
  "cardtable[gymnasium]"``).
- :mod:`cardtable.adapters.openspiel`: ``load_game(game_id, players=...)``, an OpenSpiel game
  registered with ``pyspiel`` (``pip install "cardtable[openspiel]"``).

Importing this package needs none of them; each module imports its library.

The adapters own the translation to each library's API only: they play through the public API
(:func:`cardtable.make`, :class:`cardtable.VectorEnv`), hold no rules and must not import the
reference implementations or each other.
"""

from __future__ import annotations

from cardtable.adapters._common import win_rewards

__all__ = ["win_rewards"]
