//! The storage of a launch's global arena ([`Global`]): a heap vector, or (Linux) memory
//! of an anonymous in-memory file (`memfd_create`) mapped shared, of which parallel jobs
//! take private copy-on-write views (`parallel`): a view reads the arena's pages without
//! copying them, and the kernel copies a page only when the view writes it, so a job's
//! writes stay its own and an extra job costs no copy of the whole arena.
//!
//! A view shows the arena's bytes as the arena holds them whenever the view first touches
//! a page it has not written: `parallel` takes views only while it holds the arena
//! mutably and writes nothing into it until every job that reads a view has finished.

use std::ops::{Deref, DerefMut};

/// A global arena: its bytes through `Deref`/`DerefMut`.
pub(crate) struct Global(Store);

enum Store {
    Heap(Vec<u8>),
    #[cfg(target_os = "linux")]
    Map(map::Mapping),
}

impl Default for Global {
    fn default() -> Self {
        Global(Store::Heap(Vec::new()))
    }
}

impl From<Vec<u8>> for Global {
    fn from(v: Vec<u8>) -> Self {
        Global(Store::Heap(v))
    }
}

impl Deref for Global {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Store::Heap(v) => v,
            #[cfg(target_os = "linux")]
            Store::Map(m) => m.bytes(),
        }
    }
}

impl DerefMut for Global {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Store::Heap(v) => v,
            #[cfg(target_os = "linux")]
            Store::Map(m) => m.bytes_mut(),
        }
    }
}

impl Global {
    /// A zeroed arena of `n` bytes that views can be taken of ([`Global::view`]) when the
    /// system allows (an in-memory file mapped shared), else on the heap.
    pub(crate) fn shareable(n: usize) -> Global {
        #[cfg(target_os = "linux")]
        if let Some(m) = map::Mapping::shared(n) {
            return Global(Store::Map(m));
        }
        Global::from(vec![0u8; n])
    }

    /// The arena's bytes as a vector (no copy for a heap arena).
    pub(crate) fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Store::Heap(v) => v,
            #[cfg(target_os = "linux")]
            Store::Map(m) => m.bytes().to_vec(),
        }
    }

    /// Whether views can be taken of this arena.
    pub(crate) fn is_shareable(&self) -> bool {
        match &self.0 {
            Store::Heap(_) => false,
            #[cfg(target_os = "linux")]
            Store::Map(m) => m.fd.is_some(),
        }
    }

    /// A private copy-on-write view of a shareable arena (see the module comment for what
    /// it shows); `None` when this arena is not shareable or the mapping fails.
    pub(crate) fn view(&self) -> Option<Global> {
        match &self.0 {
            Store::Heap(_) => None,
            #[cfg(target_os = "linux")]
            Store::Map(m) => m.view().map(|v| Global(Store::Map(v))),
        }
    }
}

#[cfg(target_os = "linux")]
mod map {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    /// Memory mapped from an in-memory file: shared (the file's own pages; `fd` kept so that
    /// views can be taken) or a private view (`fd` none).
    pub(super) struct Mapping {
        ptr: *mut u8,
        len: usize,
        pub(super) fd: Option<OwnedFd>,
    }

    // SAFETY: a `Mapping` owns its pages exclusively (a shared one is written only through
    // `&mut`; views are separate mappings whose writes stay private), like a `Vec<u8>`.
    unsafe impl Send for Mapping {}
    // SAFETY: `&Mapping` only reads.
    unsafe impl Sync for Mapping {}

    impl Mapping {
        /// `n` zeroed bytes of a new in-memory file, mapped shared; `None` for `n` 0 or when
        /// the system refuses.
        pub(super) fn shared(n: usize) -> Option<Mapping> {
            if n == 0 {
                return None;
            }
            // SAFETY: a NUL-terminated name and valid flags; the result is checked.
            let raw = unsafe { libc::memfd_create(c"weft-arena".as_ptr(), libc::MFD_CLOEXEC) };
            if raw < 0 {
                return None;
            }
            // SAFETY: `raw` is a new descriptor that nothing else owns.
            let fd = unsafe { OwnedFd::from_raw_fd(raw) };
            // SAFETY: plain system calls on the descriptor; results checked.
            if unsafe { libc::ftruncate(fd.as_raw_fd(), n as libc::off_t) } != 0 {
                return None;
            }
            let ptr = map(n, libc::MAP_SHARED | libc::MAP_POPULATE, &fd)?;
            Some(Mapping {
                ptr,
                len: n,
                fd: Some(fd),
            })
        }

        /// A private copy-on-write mapping of the same file.
        pub(super) fn view(&self) -> Option<Mapping> {
            let fd = self.fd.as_ref()?;
            let ptr = map(self.len, libc::MAP_PRIVATE, fd)?;
            Some(Mapping {
                ptr,
                len: self.len,
                fd: None,
            })
        }

        #[inline]
        pub(super) fn bytes(&self) -> &[u8] {
            // SAFETY: `ptr` maps `len` readable bytes for the mapping's lifetime.
            unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
        }

        #[inline]
        pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
            // SAFETY: `ptr` maps `len` writable bytes, borrowed mutably through `self`.
            unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
        }
    }

    /// Maps `n` bytes of `fd` from offset 0, readable and writable, with `flags`.
    fn map(n: usize, flags: libc::c_int, fd: &OwnedFd) -> Option<*mut u8> {
        // SAFETY: a new mapping at an address the kernel chooses; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                n,
                libc::PROT_READ | libc::PROT_WRITE,
                flags,
                fd.as_raw_fd(),
                0,
            )
        };
        (p != libc::MAP_FAILED).then_some(p.cast::<u8>())
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: `ptr`/`len` are this mapping's, and no borrow of it outlives `self`.
            unsafe {
                libc::munmap(self.ptr.cast(), self.len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_reads_the_arena_and_keeps_its_writes() {
        let mut g = Global::shareable(3 << 12);
        g[5] = 7;
        g[9000] = 8;
        if !g.is_shareable() {
            // No in-memory files here: the heap arena takes no views.
            assert!(g.view().is_none());
            return;
        }
        let mut a = g.view().expect("view");
        let b = g.view().expect("view");
        a[5] = 1;
        a[100] = 2;
        assert_eq!((a[5], a[9000], a[100]), (1, 8, 2));
        assert_eq!((b[5], b[100]), (7, 0));
        assert_eq!((g[5], g[100]), (7, 0));
        assert_eq!(Global::from(vec![1, 2]).into_vec(), vec![1, 2]);
        assert_eq!(g.into_vec().len(), 3 << 12);
    }
}
