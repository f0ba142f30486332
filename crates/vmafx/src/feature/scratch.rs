//! Working buffers shared by the extractor instances of one thread, for scoring several
//! distorted inputs of one reference ([`crate::Scorer::score_readers_many`]).
//!
//! An extractor instance owns its working buffers (VIF's planes of the later scales,
//! ADM's bands), sized by `init` and overwritten by every frame: nothing in them is carried
//! from one frame to the next (a pair run with several workers hands each instance frames
//! out of order and gets the same scores). Scoring N distorted inputs needs N instances of
//! each extractor; on one thread they run one after another, so one set of buffers serves
//! them all. Inside [`shared_on_this_thread`], [`lend`] hands an instance the thread's
//! spare buffers of its kind and shape instead of its own, which it then never touches
//! (its pages, allocated zeroed, are never made resident). Outside it, [`lend`] is a plain
//! call on the instance's own buffers.

use std::any::{Any, TypeId};
use std::cell::RefCell;

/// The spare buffers of each kind and shape on this thread: `None` outside
/// [`shared_on_this_thread`].
type Shelf = Option<Vec<(TypeId, u64, Box<dyn Any>)>>;

thread_local! {
    static SHELF: RefCell<Shelf> = const { RefCell::new(None) };
}

/// Runs `f` with working buffers shared between the extractor instances that run on this
/// thread meanwhile; they are freed when `f` returns. Nested calls share the outer shelf.
pub(crate) fn shared_on_this_thread<R>(f: impl FnOnce() -> R) -> R {
    let opened = SHELF.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_some() {
            return false;
        }
        *s = Some(Vec::new());
        true
    });
    /// Empties the shelf when the scope ends, unwinding included.
    struct Close(bool);
    impl Drop for Close {
        fn drop(&mut self) {
            if self.0 {
                let spares = SHELF.with(|s| s.borrow_mut().take());
                drop(spares);
            }
        }
    }
    let _close = Close(opened);
    f()
}

/// Whether this thread runs inside [`shared_on_this_thread`]: its extractor instances all
/// score distorted inputs of one reference, so that at one frame index their reference
/// frames are the same.
pub(crate) fn is_shared() -> bool {
    SHELF.with(|s| s.borrow().is_some())
}

/// Inside [`shared_on_this_thread`], which reference frame is scored: its `index` and
/// where the luma samples of `reference` start, by which buffers that outlive a call tell
/// whether they hold that frame's reference-only values already; `None` outside.
pub(crate) fn reference_key(index: u64, reference: &crate::frame::Frame) -> Option<(u64, usize)> {
    is_shared().then(|| {
        let address = match reference.plane(0).samples() {
            crate::frame::Samples::U8(px) => px.as_ptr() as usize,
            crate::frame::Samples::U16(px) => px.as_ptr() as usize,
        };
        (index, address)
    })
}

/// Runs `f` on working buffers shaped as `own`. Outside [`shared_on_this_thread`] those are
/// `own` itself. Inside it they are this thread's spare buffers of type `T` and shape `key`
/// (made by `make(own)` the first time), swapped into `own` for the call and put back on the
/// shelf after it: every field of `T` must be either fixed by `key` (sizes, kernels) or
/// overwritten before it is read within one call.
pub(crate) fn lend<T: 'static, R>(
    own: &mut T,
    key: u64,
    make: impl FnOnce(&T) -> T,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let Some(mut spare) = take::<T>(key).map(|s| s.unwrap_or_else(|| make(own))) else {
        return f(own);
    };
    std::mem::swap(own, &mut spare);
    let result = f(own);
    std::mem::swap(own, &mut spare);
    SHELF.with(|s| {
        if let Some(shelf) = s.borrow_mut().as_mut() {
            shelf.push((TypeId::of::<T>(), key, Box::new(spare)));
        }
    });
    result
}

/// `None` outside a shared scope; inside it, the spare of type `T` and shape `key` if the
/// shelf holds one (taken off it).
fn take<T: 'static>(key: u64) -> Option<Option<T>> {
    SHELF.with(|s| {
        let mut s = s.borrow_mut();
        let shelf = s.as_mut()?;
        let at = shelf
            .iter()
            .position(|(t, k, _)| *t == TypeId::of::<T>() && *k == key);
        Some(at.and_then(|i| shelf.swap_remove(i).2.downcast::<T>().ok().map(|b| *b)))
    })
}

/// A shape key from a picture's size, bit depth and kernel level.
pub(crate) fn shape_key(width: usize, height: usize, bpc: u32, level: u8) -> u64 {
    (width as u64) | (height as u64) << 24 | u64::from(bpc) << 48 | u64::from(level) << 56
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buffers that count how often they were made and record the last writer.
    struct Bufs {
        id: u32,
        last: u32,
    }

    fn run(own: &mut Bufs, key: u64, made: &mut u32, writer: u32) -> u32 {
        lend(
            own,
            key,
            |_| {
                *made += 1;
                Bufs {
                    id: 100 + *made,
                    last: 0,
                }
            },
            |b| {
                let before = b.last;
                b.last = writer;
                assert!(b.id >= 100 || b.id == writer);
                before
            },
        )
    }

    #[test]
    fn outside_a_scope_each_instance_uses_its_own_buffers() {
        let (mut a, mut b) = (Bufs { id: 1, last: 0 }, Bufs { id: 2, last: 0 });
        let mut made = 0;
        run(&mut a, 7, &mut made, 1);
        assert_eq!(run(&mut b, 7, &mut made, 2), 0);
        assert_eq!((a.last, b.last, made), (1, 2, 0));
    }

    #[test]
    fn inside_a_scope_instances_of_one_shape_share_one_spare() {
        shared_on_this_thread(|| {
            let (mut a, mut b) = (Bufs { id: 1, last: 0 }, Bufs { id: 2, last: 0 });
            let mut made = 0;
            assert_eq!(run(&mut a, 7, &mut made, 1), 0);
            // b writes into the spare a wrote: one set of buffers for both.
            assert_eq!(run(&mut b, 7, &mut made, 2), 1);
            assert_eq!(run(&mut a, 7, &mut made, 1), 2);
            // Their own buffers are left untouched and a shape of its own gets its own spare.
            assert_eq!((a.last, b.last, made), (0, 0, 1));
            assert_eq!(run(&mut a, 8, &mut made, 3), 0);
            assert_eq!(made, 2);
        });
        // The scope's spares are gone with it.
        let mut c = Bufs { id: 3, last: 0 };
        let mut made = 0;
        run(&mut c, 7, &mut made, 3);
        assert_eq!((c.last, made), (3, 0));
    }
}
