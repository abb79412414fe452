//! Connections from the open internet: the accept loop of `weft serve` (HTTP/1.1 through
//! hyper), with every wait on a client bounded. A request's headers must arrive within
//! [`Limits::header_timeout`]; a body within [`Limits::body_timeout`] (the middleware in
//! `lib.rs`); a client that stops reading a response for [`Limits::write_stall`] loses its
//! connection (the response, and the memory it holds, is dropped); a connection lives at
//! most [`Limits::lifetime`] (then it finishes its request and closes, or is cut a grace
//! period later); at most [`Limits::connections`] are open at once (more are closed on
//! accept).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{watch, Semaphore};
use tokio::time::Sleep;

/// Bounds on what one client may hold.
#[derive(Clone, Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub write_stall: Duration,
    pub lifetime: Duration,
    pub connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            write_stall: Duration::from_secs(15),
            lifetime: Duration::from_secs(300),
            connections: 2048,
        }
    }
}

/// A TCP stream whose writes fail with `TimedOut` once the peer has accepted nothing for
/// `stall` (a client that stops reading): hyper then closes the connection.
struct Guarded {
    inner: TcpStream,
    stall: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl Guarded {
    fn pending<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let stall = self.stall;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        if timer.as_mut().poll(cx).is_ready() {
            Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            )))
        } else {
            Poll::Pending
        }
    }

    fn progress<T>(&mut self, r: Poll<io::Result<T>>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match r {
            Poll::Ready(v) => {
                self.stalled = None;
                Poll::Ready(v)
            }
            Poll::Pending => self.pending(cx),
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.progress(r, cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.progress(r, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.inner).poll_flush(cx);
        self.progress(r, cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Accepts connections on `listener` and serves `app` on each until `shutdown` resolves;
/// then lets open connections finish their requests (at most 5 s).
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.connections.max(1)));
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, addr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                // Out of descriptors and the like: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let limits = limits.clone();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let _permit = permit;
            connection(stream, addr, app, &limits, &mut stop).await;
        });
    }
    let _ = stop_tx.send(true);
    let all = limits.connections.max(1) as u32;
    let _ = tokio::time::timeout(Duration::from_secs(5), open.acquire_many(all)).await;
    Ok(())
}

async fn connection(
    stream: TcpStream,
    addr: SocketAddr,
    app: Router,
    limits: &Limits,
    stop: &mut watch::Receiver<bool>,
) {
    let io = TokioIo::new(Guarded {
        inner: stream,
        stall: limits.write_stall,
        stalled: None,
    });
    let svc = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let mut req = req.map(axum::body::Body::new);
        req.extensions_mut().insert(ConnectInfo(addr));
        let mut app = app.clone();
        async move { tower::Service::call(&mut app, req).await }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let conn = builder.serve_connection(io, svc);
    tokio::pin!(conn);
    let lifetime = tokio::time::sleep(limits.lifetime);
    tokio::pin!(lifetime);
    let mut closing = false;
    loop {
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = &mut lifetime => {
                if closing {
                    return;
                }
                // Finish the request in flight, then close; cut it a stall later.
                closing = true;
                conn.as_mut().graceful_shutdown();
                lifetime.as_mut().reset(tokio::time::Instant::now() + limits.write_stall);
            }
            r = stop.changed(), if !closing => {
                closing = true;
                conn.as_mut().graceful_shutdown();
                if r.is_err() {
                    return;
                }
            }
        }
    }
}
