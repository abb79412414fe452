//! Source positions of JSON values: a scanner that records where each value (and each
//! object member's key) starts, by path, for semantic errors and statement spans.

use std::collections::HashMap;

use weft_ir::Span;

/// One step of a path into the JSON document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Seg {
    Key(String),
    Idx(usize),
}

/// Where each value (and each object member's key) starts, by path.
#[derive(Default)]
pub(super) struct Index {
    pub(super) values: HashMap<Vec<Seg>, (u32, u32)>,
    pub(super) keys: HashMap<Vec<Seg>, (u32, u32)>,
}

struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
}

impl Scanner<'_> {
    fn bump(&mut self) {
        if let Some(&c) = self.b.get(self.i) {
            if c == b'\n' {
                self.line += 1;
                self.col = 1;
            } else if c & 0xC0 != 0x80 {
                self.col += 1;
            }
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.bump();
        while let Some(c) = self.peek() {
            match c {
                b'\\' => {
                    self.bump();
                    self.bump();
                }
                b'"' => {
                    self.bump();
                    return serde_json::from_str(self.src.get(start..self.i)?).ok();
                }
                _ => self.bump(),
            }
        }
        None
    }

    /// Records the value at the cursor and everything inside it; `None` on malformed input.
    fn value(&mut self, path: &mut Vec<Seg>, ix: &mut Index, depth: usize) -> Option<()> {
        if depth > 256 {
            return None;
        }
        ix.values.insert(path.clone(), (self.line, self.col));
        match self.peek()? {
            b'{' => {
                self.bump();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.bump();
                    return Some(());
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return None;
                    }
                    let at = (self.line, self.col);
                    let key = self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return None;
                    }
                    self.bump();
                    self.ws();
                    path.push(Seg::Key(key));
                    ix.keys.entry(path.clone()).or_insert(at);
                    let r = self.value(path, ix, depth + 1);
                    path.pop();
                    r?;
                    self.ws();
                    match self.peek()? {
                        b',' => self.bump(),
                        b'}' => {
                            self.bump();
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.bump();
                self.ws();
                if self.peek() == Some(b']') {
                    self.bump();
                    return Some(());
                }
                let mut k = 0;
                loop {
                    self.ws();
                    path.push(Seg::Idx(k));
                    let r = self.value(path, ix, depth + 1);
                    path.pop();
                    r?;
                    k += 1;
                    self.ws();
                    match self.peek()? {
                        b',' => self.bump(),
                        b']' => {
                            self.bump();
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string().map(|_| ()),
            _ => {
                while let Some(c) = self.peek() {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.bump();
                }
                Some(())
            }
        }
    }
}

pub(super) fn build_index(src: &str) -> Index {
    let mut sc = Scanner {
        src,
        b: src.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
    };
    let mut ix = Index::default();
    sc.ws();
    let _ = sc.value(&mut Vec::new(), &mut ix, 0);
    ix
}

impl Index {
    /// Where the value at `path` starts (or the nearest enclosing value).
    pub(super) fn pos(&self, path: &[Seg]) -> (u32, u32) {
        for n in (0..=path.len()).rev() {
            if let Some(p) = self.values.get(&path[..n]) {
                return *p;
            }
        }
        (1, 1)
    }

    pub(super) fn key_pos(&self, path: &[Seg]) -> (u32, u32) {
        self.keys
            .get(path)
            .copied()
            .unwrap_or_else(|| self.pos(path))
    }

    pub(super) fn span(&self, path: &[Seg]) -> Span {
        let (l, c) = self.pos(path);
        Span::new(l, c)
    }
}
