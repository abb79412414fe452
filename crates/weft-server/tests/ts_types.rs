//! The web app's API types (`web/src/api-types.ts`) are what ts-rs generates from the
//! server's Rust types today (issue 29 item 13); `WEFT_UPDATE=1` rewrites the file.

#[test]
fn web_api_types_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/api-types.ts");
    let want = weft_server::api_types::typescript();
    if std::env::var_os("WEFT_UPDATE").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "web/src/api-types.ts is stale: run `WEFT_UPDATE=1 cargo test -p weft-server --test ts_types`, then `npm --prefix web run build`"
    );
}
