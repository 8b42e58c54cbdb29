//! The relay's rooms without sockets: who gets which seat, what is kept and forgotten, the
//! limits; and the store written, closed and read back.

use std::time::Duration;

use super::{Bucket, RelayConfig, RelayError, RelayIn, RoomCode, Rooms, StoreOp, Token, decode_in};
use crate::peer::Role;

fn code(b: u8) -> RoomCode {
    RoomCode([b; 16])
}

fn token(b: u8) -> Token {
    Token([b; 16])
}

#[test]
fn codes_and_tokens_read_back_and_bad_ones_are_refused() {
    let c = RoomCode(*b"0123456789abcdef");
    assert_eq!(c.to_string().len(), 32);
    assert_eq!(c.to_string().parse::<RoomCode>(), Ok(c));
    for bad in ["", "xyz", &"g".repeat(32), &"0".repeat(31), &"é".repeat(16)] {
        assert_eq!(bad.parse::<RoomCode>(), Err(RelayError::BadCode), "{bad}");
    }
}

#[test]
fn two_players_a_room_and_a_token_gives_the_seat_back() {
    let mut rooms = Rooms::new(RelayConfig::default());
    rooms.create(1, code(1), token(1), 0).unwrap();
    let g = rooms.join(2, code(1), None, None, token(2), 0, 0).unwrap();
    assert_eq!((g.role, g.peer), (Role::Guest, Some(1)));
    // A third player finds both seats held.
    assert_eq!(
        rooms
            .join(3, code(1), None, None, token(3), 0, 0)
            .unwrap_err(),
        RelayError::RoomFull
    );
    assert_eq!(
        rooms
            .join(3, code(1), Some(Role::Host), None, token(3), 0, 0)
            .unwrap_err(),
        RelayError::RoomFull
    );
    assert_eq!(
        rooms
            .join(3, code(1), None, Some(token(9)), token(3), 0, 0)
            .unwrap_err(),
        RelayError::BadToken
    );
    assert_eq!(
        rooms
            .join(3, code(2), None, None, token(3), 0, 0)
            .unwrap_err(),
        RelayError::NoRoom
    );
    // The guest's token takes its seat back, from a new connection, even while the old one
    // lingers (it is evicted).
    let back = rooms
        .join(4, code(1), None, Some(token(2)), token(4), 0, 0)
        .unwrap();
    assert_eq!(
        (back.role, back.evicted, back.token),
        (Role::Guest, Some(2), token(2))
    );
    // The old connection leaving does not free the seat taken over.
    assert_eq!(rooms.leave(2, code(1), Role::Guest), None);
    // The host goes away; a player with the code (and no token) may take the host's seat.
    assert_eq!(rooms.leave(1, code(1), Role::Host), Some(4));
    let h = rooms
        .join(5, code(1), Some(Role::Host), None, token(5), 0, 0)
        .unwrap();
    assert_eq!((h.role, h.token, h.peer), (Role::Host, token(5), Some(4)));
}

#[test]
fn messages_are_kept_until_acknowledged_and_stay_in_their_room() {
    let mut rooms = Rooms::new(RelayConfig {
        max_queue: 3,
        ..RelayConfig::default()
    });
    rooms.create(1, code(1), token(1), 0).unwrap();
    rooms.create(2, code(2), token(2), 0).unwrap();
    let mut seqs = Vec::new();
    for i in 0..3 {
        let a = rooms
            .send(code(1), Role::Host, &format!("m{i}"), true, 0)
            .unwrap();
        assert_eq!(a.to, 1);
        assert!(matches!(a.ops[0], StoreOp::Push(c, 1, s, _) if c == code(1) && s == a.seq));
        assert_eq!(rooms.kept_now(code(1), a.to, a.seq, format!("m{i}")), None);
        seqs.push(a.seq);
    }
    assert_eq!(seqs, [1, 2, 3]);
    assert_eq!(
        rooms.send(code(1), Role::Host, "m3", true, 0).unwrap_err(),
        RelayError::QueueFull(3)
    );
    // A message not kept (a heartbeat) gets no number and is not refused by a full queue.
    assert_eq!(
        rooms.send(code(1), Role::Host, "hb", false, 0).unwrap().seq,
        0
    );
    // The guest joins room 1 after message 1: it gets 2 and 3; room 2 has nothing.
    let g = rooms.join(7, code(1), None, None, token(7), 1, 0).unwrap();
    assert_eq!(g.backlog, vec![(2, "m1".to_owned()), (3, "m2".to_owned())]);
    let other = rooms.join(8, code(2), None, None, token(8), 0, 0).unwrap();
    assert!(other.backlog.is_empty());
    assert_eq!(
        rooms.ack(code(1), Role::Guest, 2),
        vec![StoreOp::Forget(code(1), 1, 2)]
    );
    assert_eq!(rooms.kept(), 1);
    assert!(rooms.ack(code(1), Role::Guest, 2).is_empty());
}

#[test]
fn room_count_and_idle_rooms_are_bounded() {
    let mut rooms = Rooms::new(RelayConfig {
        max_rooms: 2,
        room_idle: Duration::from_secs(100),
        ..RelayConfig::default()
    });
    rooms.create(1, code(1), token(1), 0).unwrap();
    rooms.create(2, code(2), token(2), 0).unwrap();
    assert_eq!(
        rooms.create(3, code(3), token(3), 0).unwrap_err(),
        RelayError::TooManyRooms(2)
    );
    // Room 1 is left; after the idle time it is forgotten, room 2 (still connected) is not.
    rooms.leave(1, code(1), Role::Host);
    assert!(rooms.expire(50).is_empty());
    assert_eq!(rooms.expire(101), vec![StoreOp::DeleteRoom(code(1))]);
    assert_eq!(rooms.len(), 1);
}

#[test]
fn the_bucket_allows_bursts_then_the_rate() {
    let config = RelayConfig {
        rate_per_second: 10.0,
        burst: 5.0,
        ..RelayConfig::default()
    };
    let mut b = Bucket::new(&config, Duration::ZERO);
    let t0 = Duration::ZERO;
    assert_eq!((0..10).filter(|_| b.take(&config, t0)).count(), 5);
    // One second later, ten more at most (the bucket holds five).
    let t1 = Duration::from_secs(1);
    assert_eq!((0..10).filter(|_| b.take(&config, t1)).count(), 5);
    let t2 = t1 + Duration::from_millis(100);
    assert_eq!((0..10).filter(|_| b.take(&config, t2)).count(), 1);
}

#[test]
fn frames_decode_or_are_refused() {
    let config = RelayConfig {
        max_frame_bytes: 64,
        ..RelayConfig::default()
    };
    assert_eq!(
        decode_in(r#"{"op":"create"}"#, &config),
        Ok(RelayIn::Create)
    );
    assert_eq!(
        decode_in(r#"{"op":"send","data":"x"}"#, &config),
        Ok(RelayIn::Send {
            data: "x".into(),
            keep: true
        })
    );
    assert!(matches!(
        decode_in(r#"{"op":"fly"}"#, &config),
        Err(RelayError::Bad(_))
    ));
    assert!(matches!(
        decode_in(&"x".repeat(65), &config),
        Err(RelayError::TooLong(64))
    ));
}

#[cfg(feature = "relay")]
#[test]
fn the_store_keeps_rooms_and_queues_across_a_reopen() {
    use super::store::Store;
    let dir = std::env::temp_dir().join(format!("sprouts-relay-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("relay.redb");
    let _ = std::fs::remove_file(&path);
    let mut rooms = Rooms::new(RelayConfig::default());
    {
        let store = Store::open(&path).unwrap();
        store
            .apply(&rooms.create(1, code(1), token(1), 5).unwrap())
            .unwrap();
        store
            .apply(&rooms.create(2, code(2), token(2), 5).unwrap())
            .unwrap();
        for i in 0..4 {
            let a = rooms
                .send(code(1), Role::Host, &format!("h{i}"), true, 6)
                .unwrap();
            store.apply(&a.ops).unwrap();
            rooms.kept_now(code(1), a.to, a.seq, format!("h{i}"));
        }
        let a = rooms.send(code(2), Role::Host, "other", true, 6).unwrap();
        store.apply(&a.ops).unwrap();
        rooms.kept_now(code(2), a.to, a.seq, "other".into());
        store.apply(&rooms.ack(code(1), Role::Guest, 2)).unwrap();
        store.apply(&[StoreOp::DeleteRoom(code(2))]).unwrap();
    }
    let store = Store::open(&path).unwrap();
    let kept = store.load().unwrap();
    assert_eq!(kept.len(), 1);
    let (c, record, queues) = &kept[0];
    assert_eq!(*c, code(1));
    assert_eq!(record.next_seq, [1, 5]);
    assert_eq!(queues[1], vec![(3, "h2".to_owned()), (4, "h3".to_owned())]);
    assert!(queues[0].is_empty());
    // The restored rooms number the next message after the kept ones.
    let mut restored = Rooms::restore(RelayConfig::default(), kept);
    assert_eq!(
        restored
            .send(code(1), Role::Host, "h4", true, 7)
            .unwrap()
            .seq,
        5
    );
    let g = restored
        .join(9, code(1), None, None, token(9), 0, 7)
        .unwrap();
    assert_eq!(g.backlog.len(), 2);
    let _ = std::fs::remove_file(&path);
}
