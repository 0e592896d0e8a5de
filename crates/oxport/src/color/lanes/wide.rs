//! `Wide<L>`: `L` doubles operated on together, each operation a loop over
//! the lanes that compiles to a few vector instructions back to back. A
//! computation written on `Wide` is a sequence of whole-block steps, so the
//! processor sees every lane's chain at once (a long chain per lane, as a
//! loop body, keeps only a couple in flight). Every function is inlined
//! into the caller, and so compiled for the caller's instruction set.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// `a * b + c`, fused where the target has FMA.
#[inline(always)]
pub(super) fn fma<const F: bool>(a: f64, b: f64, c: f64) -> f64 {
    if F { a.mul_add(b, c) } else { a * b + c }
}

/// `L` doubles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Wide<const L: usize>(pub [f64; L]);

/// A lane mask. Masks are not combined (no `and` or `or`): such loops
/// over the lanes compile to one lane at a time; one comparison on a value
/// computed for it does the same work in the vector.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mask<const L: usize>([bool; L]);

impl<const L: usize> Wide<L> {
    #[inline(always)]
    pub fn splat(v: f64) -> Self {
        Wide([v; L])
    }

    #[inline(always)]
    pub fn map(mut self, f: impl Fn(f64) -> f64) -> Self {
        for v in &mut self.0 {
            *v = f(*v);
        }
        self
    }

    #[inline(always)]
    fn zip(mut self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        for (v, &o) in self.0.iter_mut().zip(&other.0) {
            *v = f(*v, o);
        }
        self
    }

    #[inline(always)]
    fn test(self, other: Self, f: impl Fn(f64, f64) -> bool) -> Mask<L> {
        let mut mask = [false; L];
        for ((m, &a), &b) in mask.iter_mut().zip(&self.0).zip(&other.0) {
            *m = f(a, b);
        }
        Mask(mask)
    }

    /// `self * b + c`, fused where `F`.
    #[inline(always)]
    pub fn mul_add<const F: bool>(mut self, b: Self, c: Self) -> Self {
        for ((v, &b), &c) in self.0.iter_mut().zip(&b.0).zip(&c.0) {
            *v = fma::<F>(*v, b, c);
        }
        self
    }

    #[inline(always)]
    pub fn lt(self, other: Self) -> Mask<L> {
        self.test(other, |a, b| a < b)
    }

    #[inline(always)]
    pub fn gt(self, other: Self) -> Mask<L> {
        self.test(other, |a, b| a > b)
    }

    #[inline(always)]
    pub fn le(self, other: Self) -> Mask<L> {
        self.test(other, |a, b| a <= b)
    }

    #[inline(always)]
    pub fn eq(self, other: Self) -> Mask<L> {
        self.test(other, |a, b| a == b)
    }

    #[inline(always)]
    pub fn ne(self, other: Self) -> Mask<L> {
        self.test(other, |a, b| a != b)
    }

    #[inline(always)]
    pub fn is_nan(self) -> Mask<L> {
        self.test(self, |a, b| a != b)
    }

    #[inline(always)]
    pub fn abs(self) -> Self {
        self.map(|v| v.abs())
    }

    #[inline(always)]
    pub fn sqrt(self) -> Self {
        self.map(|v| v.sqrt())
    }

    #[inline(always)]
    pub fn min(self, other: Self) -> Self {
        self.zip(other, |a, b| a.min(b))
    }

    #[inline(always)]
    pub fn max(self, other: Self) -> Self {
        self.zip(other, |a, b| a.max(b))
    }

    #[inline(always)]
    pub fn copysign(self, sign: Self) -> Self {
        self.zip(sign, |a, b| a.copysign(b))
    }

    /// The lanes' bits, changed by `f`, as doubles again.
    #[inline(always)]
    pub fn bits(self, f: impl Fn(u64) -> u64) -> Self {
        self.map(|v| f64::from_bits(f(v.to_bits())))
    }

    /// Two lanes' bits, combined by `f`, as doubles again.
    #[inline(always)]
    pub fn bits2(self, other: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        self.zip(other, |a, b| f64::from_bits(f(a.to_bits(), b.to_bits())))
    }
}

impl<const L: usize> Mask<L> {
    /// `a` where the mask is set, else `b`.
    #[inline(always)]
    pub fn select(self, mut a: Wide<L>, b: Wide<L>) -> Wide<L> {
        for ((v, &pick), &other) in a.0.iter_mut().zip(&self.0).zip(&b.0) {
            if !pick {
                *v = other;
            }
        }
        a
    }
}

macro_rules! operator {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<const L: usize> $trait for Wide<L> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                self.zip(other, |a, b| a $op b)
            }
        }
        impl<const L: usize> $trait<f64> for Wide<L> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: f64) -> Self {
                self.map(|a| a $op other)
            }
        }
    };
}

operator!(Add, add, +);
operator!(Sub, sub, -);
operator!(Mul, mul, *);
operator!(Div, div, /);

impl<const L: usize> Neg for Wide<L> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.map(|a| -a)
    }
}
