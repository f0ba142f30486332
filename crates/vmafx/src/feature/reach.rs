//! Temporal reach: which neighbouring frames an extractor's score at frame `n` reads.
//!
//! Chunked scoring feeds each chunk the frames before and after it that its features read,
//! so a chunk's scores equal one pass's. The reach counts every frame a written score
//! depends on, directly or through earlier scores (motion2 reads the SAD of the next frame,
//! whose SAD reads this one). The first frames of a video keep their own rules (motion is
//! 0 at frame 0); a reach covers those too.

/// How far an extractor's scores reach into neighbouring frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The score at frame `n` reads frames `n - before ..= n + after` only.
    Frames {
        /// Earlier frames read.
        before: u64,
        /// Later frames read.
        after: u64,
    },
    /// The named extractor carries state across any number of frames: a video cannot be
    /// split for it and must be scored in one pass.
    Unbounded(&'static str),
}

impl Reach {
    /// Reads the frame itself only.
    pub const NONE: Reach = Reach::Frames {
        before: 0,
        after: 0,
    };

    /// The reach of two extractors run together: the wider of each side (unbounded wins).
    pub fn union(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::Unbounded(n), _) | (_, Reach::Unbounded(n)) => Reach::Unbounded(n),
            (
                Reach::Frames { before, after },
                Reach::Frames {
                    before: b,
                    after: a,
                },
            ) => Reach::Frames {
                before: before.max(b),
                after: after.max(a),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Reach;

    #[test]
    fn union_takes_the_wider_side_and_unbounded_wins() {
        let a = Reach::Frames {
            before: 2,
            after: 0,
        };
        let b = Reach::Frames {
            before: 1,
            after: 1,
        };
        assert_eq!(
            a.union(b),
            Reach::Frames {
                before: 2,
                after: 1
            }
        );
        assert_eq!(Reach::NONE.union(Reach::NONE), Reach::NONE);
        assert_eq!(a.union(Reach::Unbounded("x")), Reach::Unbounded("x"));
        assert_eq!(Reach::Unbounded("y").union(a), Reach::Unbounded("y"));
    }
}
