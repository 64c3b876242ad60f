//! The buffer-writing methods of [`AnySession`] take only a buffer of their exact length: a
//! shorter or longer one is an `InvalidOption` error and is left as it was.

use cardtable_engine::{games, make, AnySession, EngineError};
use serde_json::Map;

/// `write` on buffers one entry short and one entry long of `size`, filled with `fill`: each is
/// refused and left untouched.
fn refuses_wrong_lengths<T: Copy + PartialEq + std::fmt::Debug>(
    what: &str,
    size: usize,
    fill: T,
    mut write: impl FnMut(&mut [T]) -> cardtable_engine::Result<()>,
) {
    for len in [size.saturating_sub(1), size + 1] {
        let mut out = vec![fill; len];
        match write(&mut out) {
            Err(EngineError::InvalidOption(message)) => {
                assert!(message.contains(&size.to_string()), "{what}: {message}");
            }
            other => panic!("{what} with {len} entries (not {size}): {other:?}"),
        }
        assert!(
            out.iter().all(|&x| x == fill),
            "{what} wrote into a refused buffer"
        );
    }
}

#[test]
fn masks_and_tensors_refuse_buffers_of_another_length() {
    for info in games() {
        let game = make(info.id, info.players.0 as i64, &Map::new()).expect("default options");
        let session: Box<dyn AnySession> = game.new_session(Some(3));
        let actions = session.num_actions() as usize;
        let mut mask = vec![false; actions];
        session
            .legal_action_mask(&mut mask)
            .expect("a mask of num_actions entries");
        assert!(mask.contains(&true), "{}: no legal action", info.id);
        refuses_wrong_lengths(&format!("{}: mask", info.id), actions, true, |out| {
            session.legal_action_mask(out)
        });
        let size: usize = session.observation_shape().iter().product();
        refuses_wrong_lengths(&format!("{}: tensor", info.id), size, 7.0f32, |out| {
            session.observation_tensor(0, out)
        });
    }
}
