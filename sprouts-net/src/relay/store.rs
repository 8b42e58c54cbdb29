//! The relay's store: rooms and their queues in one `redb` file, so that a restarted relay
//! finds every message it had accepted. Writes come in batches ([`Store::apply`]), each one
//! transaction, durable when it returns.
//!
//! Two tables: `rooms` (room code → the room's record as JSON) and `queue` (room code, seat
//! and `seq` big-endian, 25 bytes → the message), so that one room's queue for one seat is a
//! range of keys in order.

use std::path::Path;

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

use super::{RoomCode, RoomRecord, StoreOp};

const ROOMS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("rooms");
const QUEUE: TableDefinition<&[u8], &str> = TableDefinition::new("queue");

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
#[error("relay store: {0}")]
pub struct StoreError(String);

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> StoreError {
        err(e)
    }
}

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// What a store kept: each room's record and the messages kept for its two seats.
pub type Kept = Vec<super::KeptRoom>;

/// The relay's store.
#[derive(Debug)]
pub struct Store {
    db: Database,
}

fn queue_key(code: &RoomCode, seat: usize, seq: u64) -> [u8; 25] {
    let mut k = [0u8; 25];
    k[..16].copy_from_slice(&code.0);
    k[16] = u8::from(seat == 1);
    k[17..].copy_from_slice(&seq.to_be_bytes());
    k
}

impl Store {
    /// Opens the store in `path` (created if missing).
    ///
    /// # Errors
    /// The file cannot be opened or is not a relay store.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let db = Database::create(path).map_err(err)?;
        let txn = db.begin_write().map_err(err)?;
        txn.open_table(ROOMS).map_err(err)?;
        txn.open_table(QUEUE).map_err(err)?;
        txn.commit().map_err(err)?;
        Ok(Store { db })
    }

    /// A store in memory (for a relay whose rooms need not outlive it).
    ///
    /// # Errors
    /// Never in practice; redb's in-memory backend reports errors like a file's.
    pub fn in_memory() -> Result<Store, StoreError> {
        let db = Database::builder()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .map_err(err)?;
        let txn = db.begin_write().map_err(err)?;
        txn.open_table(ROOMS).map_err(err)?;
        txn.open_table(QUEUE).map_err(err)?;
        txn.commit().map_err(err)?;
        Ok(Store { db })
    }

    /// Everything kept.
    ///
    /// # Errors
    /// A read fails. A room record that does not parse is skipped (and its messages).
    pub fn load(&self) -> Result<Kept, StoreError> {
        let txn = self.db.begin_read().map_err(err)?;
        let rooms = txn.open_table(ROOMS).map_err(err)?;
        let queue = txn.open_table(QUEUE).map_err(err)?;
        let mut out = Vec::new();
        for item in rooms.iter().map_err(err)? {
            let (k, v) = item.map_err(err)?;
            let Ok(code) = <[u8; 16]>::try_from(k.value()) else {
                continue;
            };
            let Ok(record) = serde_json::from_slice::<RoomRecord>(v.value()) else {
                tracing::warn!("relay store: room {} unreadable, skipped", RoomCode(code));
                continue;
            };
            let code = RoomCode(code);
            let mut queues: [Vec<(u64, String)>; 2] = [Vec::new(), Vec::new()];
            for (seat, q) in queues.iter_mut().enumerate() {
                let lo = queue_key(&code, seat, 0);
                let hi = queue_key(&code, seat, u64::MAX);
                for item in queue.range(&lo[..]..=&hi[..]).map_err(err)? {
                    let (k, v) = item.map_err(err)?;
                    let mut seq = [0u8; 8];
                    seq.copy_from_slice(&k.value()[17..25]);
                    q.push((u64::from_be_bytes(seq), v.value().to_owned()));
                }
            }
            out.push((code, record, queues));
        }
        Ok(out)
    }

    /// Writes `ops` in one transaction, durable when this returns.
    ///
    /// # Errors
    /// The write fails (nothing of it is kept).
    pub fn apply(&self, ops: &[StoreOp]) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        let txn = self.db.begin_write().map_err(err)?;
        {
            let mut rooms = txn.open_table(ROOMS).map_err(err)?;
            let mut queue = txn.open_table(QUEUE).map_err(err)?;
            for op in ops {
                match op {
                    StoreOp::PutRoom(code, record) => {
                        let json = serde_json::to_vec(record).map_err(err)?;
                        rooms.insert(&code.0[..], &json[..]).map_err(err)?;
                    }
                    StoreOp::Push(code, seat, seq, data) => {
                        queue
                            .insert(&queue_key(code, *seat, *seq)[..], data.as_str())
                            .map_err(err)?;
                    }
                    StoreOp::Forget(code, seat, upto) => {
                        let lo = queue_key(code, *seat, 0);
                        let hi = queue_key(code, *seat, *upto);
                        queue
                            .retain_in(&lo[..]..=&hi[..], |_, _| false)
                            .map_err(err)?;
                    }
                    StoreOp::DeleteRoom(code) => {
                        rooms.remove(&code.0[..]).map_err(err)?;
                        for seat in 0..2 {
                            let lo = queue_key(code, seat, 0);
                            let hi = queue_key(code, seat, u64::MAX);
                            queue
                                .retain_in(&lo[..]..=&hi[..], |_, _| false)
                                .map_err(err)?;
                        }
                    }
                }
            }
        }
        txn.commit().map_err(err)
    }
}
