//! The admin pages in real headless Chromium (Debian's `chromium` driven through
//! `chromedriver`'s WebDriver API), reached as an admin reaches them: the browser signs in at the
//! URL `wordgame token --admin --browser` prints (the gateway sets the session cookie) and then
//! navigates with nothing injected. A finished game is found in the list, opened, stepped forward
//! and back, and the board's letters and the scores shown are checked against the game's
//! timeline; screenshots at the first, a middle and the last step are saved under target/. The
//! admin signs out with the page's button. Without Chromium the test says so loudly and skips
//! (CI installs it, so CI runs it).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Guard, free_port, request, start_server, token};
use base64::Engine;
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A WebDriver session.
pub(crate) struct Browser {
    pub(crate) port: u16,
    pub(crate) session: String,
    /// Its slot among the browsers running at once.
    _slot: Slot,
}

impl Browser {
    pub(crate) fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = if method == "GET" { String::new() } else { body.to_string() };
        let (status, text) = request(self.port, method, &path, &[], &body).expect("chromedriver answers");
        assert_eq!(status, 200, "{method} {path}: {text}");
        serde_json::from_str::<Value>(&text).unwrap()["value"].clone()
    }

    pub(crate) fn click(&self, css: &str) {
        let element = self.call("POST", "/element", json!({"using": "css selector", "value": css}));
        let id = element.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).unwrap().to_string();
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }

    pub(crate) fn script(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", json!({"script": script, "args": []}))
    }

    /// Whether the page comes to show `text` within 30 seconds (a click that submits a form
    /// returns before the next page has loaded): generous, so that a loaded machine cannot fail
    /// a page that shows it; a passing test waits only until it does.
    pub(crate) fn shows(&self, text: &str) -> bool {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if self.script("return document.body.innerText").as_str().is_some_and(|t| t.contains(text)) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Saves a screenshot of the page as `name` under the test's target directory and checks
    /// it is a PNG of the window's size.
    fn screenshot(&self, name: &str) {
        let png = self.call("GET", "/screenshot", json!({}));
        let bytes = base64::engine::general_purpose::STANDARD.decode(png.as_str().unwrap()).unwrap();
        let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&shot, &bytes).unwrap();
        eprintln!("screenshot: {} ({} bytes)", shot.display(), bytes.len());
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{name} is a PNG");
        let (width, height) =
            (u32::from_be_bytes(bytes[16..20].try_into().unwrap()), u32::from_be_bytes(bytes[20..24].try_into().unwrap()));
        assert!(width >= 800 && height >= 600, "{name}: {width}×{height}");
    }
}

impl Drop for Browser {
    /// Ends the session, so a failing test leaves no Chromium running: chromedriver quits the
    /// browser when its session ends, but killing chromedriver would orphan it. Its slot goes
    /// back for another test's browser.
    fn drop(&mut self) {
        let _ = request(self.port, "DELETE", &format!("/session/{}", self.session), &[], "");
    }
}

/// How many Chromium sessions run at once across this test binary's tests: the browser tests
/// run beside the crash test on two cores, and more browsers than this starved chromedriver
/// past its client's 60-second read timeout in CI. A test with two browsers takes two slots.
const MAX_BROWSERS: usize = 2;

/// The sessions running, and the signal that one ended.
static BROWSER_SLOTS: (std::sync::Mutex<usize>, std::sync::Condvar) = (std::sync::Mutex::new(0), std::sync::Condvar::new());

/// A browser slot, given back when dropped (with its [`Browser`], or by a panic before one was
/// made).
pub(crate) struct Slot;

impl Slot {
    /// Waits for a free slot and takes it.
    fn take() -> Slot {
        let (count, freed) = &BROWSER_SLOTS;
        let mut running = count.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        while *running >= MAX_BROWSERS {
            running = freed.wait(running).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *running += 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let (count, freed) = &BROWSER_SLOTS;
        *count.lock().unwrap_or_else(std::sync::PoisonError::into_inner) -= 1;
        freed.notify_all();
    }
}

/// Creates a game as `auth` (an authorization header value) from `body`; its id.
fn create_game(port: u16, auth: &str, body: &str) -> String {
    let (status, created) = request(port, "POST", "/games", &[("authorization", auth)], body).unwrap();
    assert_eq!(status, 201, "{created}");
    serde_json::from_str::<Value>(&created).unwrap()["game_id"].as_str().unwrap().to_string()
}

/// Ends the browser session and removes the test's directory.
pub(crate) fn close(browser: &Browser, dir: &Path) {
    let _ = request(browser.port, "DELETE", &format!("/session/{}", browser.session), &[], "");
    let _ = std::fs::remove_dir_all(dir);
}

/// The tiles on the board and the scores the page shows.
const READ_PAGE: &str = "return { tiles: [...document.querySelectorAll('td.tile')].map(c => c.id.slice(3) + ':' + c.querySelector('.letter').textContent).sort(), \
    scores: [...document.querySelectorAll('.score')].map(s => Number(s.textContent)), step: document.getElementById('step').textContent };";

/// What the timeline says the page should show at `step`.
fn expected(timeline: &Value, step: usize) -> (Vec<String>, Vec<i64>) {
    let steps = timeline["timeline"]["steps"].as_array().unwrap();
    let mut tiles: Vec<String> = steps[1..=step]
        .iter()
        .filter(|s| s["move"]["kind"] == "play")
        .flat_map(|s| {
            s["move"]["tiles"].as_array().unwrap().iter().map(|t| {
                let letter = t["letter"].as_str().unwrap();
                // A blank shows the letter it stands for in lower case.
                let shown = if t["blank"] == true { letter.to_lowercase() } else { letter.to_string() };
                format!("{}:{shown}", t["square"].as_str().unwrap())
            })
        })
        .collect();
    tiles.sort();
    (tiles, steps[step]["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect())
}

/// Whether Chromium and its driver are installed; says so loudly when they are not.
pub(crate) fn have_chromium() -> bool {
    let there = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !there {
        eprintln!(
            "\n!!!!!!!! SKIPPED: Chromium is not installed ({CHROMIUM}, {CHROMEDRIVER}); `apt-get install chromium chromium-driver` (CI does) !!!!!!!!\n"
        );
    }
    there
}

/// The session cookie header of a development admin session of `account`, for the test's own
/// requests to the admin pages.
fn admin_cookie(account: &str) -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    format!("wordgame_admin={}", api::jwt::admin_session(account, true, now))
}

/// Signs the browser in to the gateway on `port` as admin `account`: it opens the one-time URL
/// `wordgame token --admin --browser` prints, and the gateway's answer sets the cookie.
fn sign_in(browser: &Browser, port: u16, account: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_wordgame"))
        .args(["token", "--account", account, "--admin", "--browser", "--port", &port.to_string()])
        .output()
        .unwrap();
    let url = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert!(url.starts_with(&format!("http://127.0.0.1:{port}/_gm/signin?code=")), "{url}");
    browser.call("POST", "/url", json!({"url": url}));
    let landed = browser.call("GET", "/url", json!({}));
    assert_eq!(landed, json!(format!("http://127.0.0.1:{port}/_gm")), "signed in, on the game list");
    assert_eq!(browser.script("return document.cookie"), json!(""), "the session cookie is HttpOnly");
}

/// Headless Chromium through chromedriver, its profile under `dir`; it sends nothing but what a
/// browser sends.
pub(crate) fn chromium(dir: &Path) -> (Guard, Browser) {
    let slot = Slot::take();
    let driver_port = free_port();
    let driver =
        Guard(Command::new(CHROMEDRIVER).arg(format!("--port={driver_port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap());
    let started = Instant::now();
    while request(driver_port, "GET", "/status", &[], "").is_none() {
        assert!(started.elapsed() < Duration::from_secs(30), "chromedriver did not come up");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = dir.join("chromium-profile");
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
        "--window-size=1200,1000",
    ];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let caps =
        json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}});
    let (status, created) = request(driver_port, "POST", "/session", &[], &caps.to_string()).unwrap();
    assert_eq!(status, 200, "{created}");
    let session = serde_json::from_str::<Value>(&created).unwrap()["value"]["sessionId"].as_str().unwrap().to_string();
    (driver, Browser { port: driver_port, session, _slot: slot })
}

#[test]
fn the_replay_page_steps_through_a_finished_game_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("browser-test");
    let (alice, admin) = (format!("Bearer {}", token("alice", false)), admin_cookie("root"));

    // A finished game: a few hinted moves against the robot, then a resignation.
    let id = create_game(port, &alice, r#"{"variant":"scrabble-en","opponents":[{"robot":"hard"}]}"#);
    for _ in 0..4 {
        let (_, view) = request(port, "GET", &format!("/games/{id}"), &[("authorization", &alice)], "").unwrap();
        let view: Value = serde_json::from_str(&view).unwrap();
        let (_, hints) = request(port, "GET", &format!("/games/{id}/hint?limit=1"), &[("authorization", &alice)], "").unwrap();
        let hints: Value = serde_json::from_str(&hints).unwrap();
        let mv = match hints["hints"].get(0) {
            Some(h) => json!({"kind": "play", "placements": h["placements"]}),
            None => json!({"kind": "pass"}),
        };
        let body = json!({"expected_move_no": view["move_count"], "move": mv}).to_string();
        let (status, answer) = request(port, "POST", &format!("/games/{id}/moves"), &[("authorization", &alice)], &body).unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    let (status, _) = request(port, "POST", &format!("/games/{id}/resign"), &[("authorization", &alice)], "").unwrap();
    assert_eq!(status, 200);
    let (status, timeline) = request(port, "GET", &format!("/_gm/games/{id}/timeline.json"), &[("cookie", &admin)], "").unwrap();
    assert_eq!(status, 200, "{timeline}");
    let timeline: Value = serde_json::from_str(&timeline).unwrap();
    let last = timeline["timeline"]["steps"].as_array().unwrap().len() - 1;
    assert!(last >= 8, "{last} moves");

    let (_driver, browser) = chromium(&dir);
    let refused = browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/_gm/games/{id}")}));
    assert!(refused.is_null());
    assert!(browser.script("return document.body.innerText").as_str().unwrap().contains("unauthenticated"), "no session, no page");
    sign_in(&browser, port, "root");
    // From the list to the game, as an admin gets there.
    let href = browser.script(&format!("return document.querySelector('a[href=\"/_gm/games/{id}\"]').getAttribute('href')"));
    assert_eq!(href, json!(format!("/_gm/games/{id}")));
    browser.click(&format!("a[href=\"/_gm/games/{id}\"]"));

    let page = browser.script(READ_PAGE);
    assert_eq!(page["tiles"], json!([]), "step 0 shows an empty board");
    let star = browser.script("return getComputedStyle(document.getElementById('sq-H8'), '::before').content");
    assert_eq!(star, json!("\"★\""), "the centre star on the empty board");
    let result = browser.script("const r = document.getElementById('result'); return r ? r.innerText : null");
    assert!(result.as_str().is_some_and(|r| r.contains("alice resigned") && r.contains("settlement")), "{result}");
    browser.screenshot("replay-screenshot-first.png");
    let forward = 5.min(last);
    for _ in 0..forward {
        browser.click("#next");
    }
    let page = browser.script(READ_PAGE);
    let (tiles, scores) = expected(&timeline, forward);
    assert_eq!(page["tiles"], json!(tiles), "board after {forward} steps");
    assert_eq!(page["scores"], json!(scores));
    assert_eq!(page["step"], format!("{forward} / {last}"));
    browser.screenshot("replay-screenshot-middle.png");
    browser.click("#prev");
    let page = browser.script(READ_PAGE);
    let (tiles, scores) = expected(&timeline, forward - 1);
    assert_eq!(page["tiles"], json!(tiles), "board after stepping back");
    assert_eq!(page["scores"], json!(scores));
    browser.click("#last");
    let page = browser.script(READ_PAGE);
    assert_eq!(page["scores"], json!(expected(&timeline, last).1));
    let visible_log = browser.script("return [...document.querySelectorAll('#log li')].filter(li => !li.hidden).length");
    assert_eq!(visible_log, json!(last));

    let logged = browser.script("return [...document.querySelectorAll('#log li')].map(li => li.textContent)");
    let plays: Vec<&str> = logged.as_array().unwrap().iter().filter_map(Value::as_str).filter(|l| l.contains(" plays ")).collect();
    assert!(
        !plays.is_empty() && plays.iter().all(|l| l.split(" plays ").nth(1).unwrap().starts_with(|c: char| c.is_ascii_alphanumeric())),
        "{plays:?}"
    );
    // The last step: the replay page's screenshot CI keeps.
    browser.screenshot("replay-screenshot.png");

    // Sign out from the list with its button: the cookie is gone, the pages refuse again.
    browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/_gm/")}));
    browser.click("#signout button");
    assert!(browser.shows("Signed out"));
    browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/_gm/")}));
    assert!(browser.script("return document.body.innerText").as_str().unwrap().contains("unauthenticated"), "signed out");
    close(&browser, &dir);
}

/// The scores, the syllable handed on and the step the chain page shows.
const READ_CHAIN: &str = "return { scores: [...document.querySelectorAll('.score')].map(s => Number(s.textContent)), \
    syllable: document.getElementById('syllable').textContent, step: document.getElementById('step').textContent, \
    log: [...document.querySelectorAll('#log li')].filter(li => !li.hidden).length };";

#[test]
fn the_chain_replay_page_steps_through_its_words_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("browser-chain-test");
    let (alice, admin) = (format!("Bearer {}", token("alice", false)), admin_cookie("root"));
    let auth = [("authorization", alice.as_str())];
    let id = create_game(port, &alice, r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}],"hints":20}"#);
    for _ in 0..3 {
        let view: Value = serde_json::from_str(&request(port, "GET", &format!("/games/{id}"), &auth, "").unwrap().1).unwrap();
        if view["status"] != "active" {
            break;
        }
        let hints: Value =
            serde_json::from_str(&request(port, "GET", &format!("/games/{id}/hint?limit=20"), &auth, "").unwrap().1).unwrap();
        // The word that leaves the opponent most answers: the game lasts a few moves.
        let word = hints["hints"].as_array().unwrap().last().unwrap()["word"].clone();
        let body = json!({"expected_move_no": view["move_count"], "move": {"kind": "word", "word": word}}).to_string();
        let (status, answer) = request(port, "POST", &format!("/games/{id}/moves"), &auth, &body).unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    // Then a word that wins at once when a hint marks one, else the first, to the end: a chain
    // game's result says who won and why (the robot, out of familiar words, may concede first).
    for _ in 0..17 {
        let view: Value = serde_json::from_str(&request(port, "GET", &format!("/games/{id}"), &auth, "").unwrap().1).unwrap();
        if view["status"] != "active" {
            break;
        }
        let hints: Value =
            serde_json::from_str(&request(port, "GET", &format!("/games/{id}/hint?limit=20"), &auth, "").unwrap().1).unwrap();
        let hints = hints["hints"].as_array().unwrap();
        let word = &hints.iter().find(|h| h["wins_at_once"] == true).unwrap_or(&hints[0])["word"];
        let body = json!({"expected_move_no": view["move_count"], "move": {"kind": "word", "word": word}}).to_string();
        let (status, answer) = request(port, "POST", &format!("/games/{id}/moves"), &auth, &body).unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    let view: Value = serde_json::from_str(&request(port, "GET", &format!("/games/{id}"), &auth, "").unwrap().1).unwrap();
    let reason = view["result"]["reason"].as_str().unwrap_or_default().to_string();
    assert!(view["status"] == "finished" && ["no_legal_move", "resigned"].contains(&reason.as_str()), "{view}");
    let (_, timeline) = request(port, "GET", &format!("/_gm/games/{id}/timeline.json"), &[("cookie", &admin)], "").unwrap();
    let timeline: Value = serde_json::from_str(&timeline).unwrap();
    let steps = timeline["steps"].as_array().unwrap().clone();
    let last = steps.len() - 1;
    assert!(last >= 2, "{last} moves");

    let (_driver, browser) = chromium(&dir);
    sign_in(&browser, port, "root");
    browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/_gm/games/{id}")}));
    let shown =
        |k: usize| json!({"scores": steps[k]["scores"], "syllable": steps[k]["syllable"], "step": format!("{k} / {last}"), "log": k});
    assert_eq!(browser.script(READ_CHAIN), shown(0), "step 0: the opening");
    browser.click("#next");
    browser.click("#next");
    assert_eq!(browser.script(READ_CHAIN), shown(2));
    browser.click("#prev");
    assert_eq!(browser.script(READ_CHAIN), shown(1));
    browser.click("#last");
    assert_eq!(browser.script(READ_CHAIN), shown(last));
    browser.click("#first");
    assert_eq!(browser.script(READ_CHAIN), shown(0));
    // The result: the winner, why (no word left, whoever has more points), each seat's points.
    let result = browser.script("const r = document.getElementById('result'); return r ? r.innerText : null");
    let result = result.as_str().unwrap_or_default();
    if reason == "no_legal_move" {
        assert!(result.contains(" wins") && result.contains("had no word left"), "{result}");
        assert!(!result.contains("resignation") && result.contains("lost"), "{result}");
    } else {
        assert!(result.contains(" wins") && result.contains("resignation"), "{result}");
    }
    for score in &steps[last]["scores"].as_array().unwrap()[..] {
        assert!(result.contains(&score.to_string()), "{score} in {result}");
    }
    close(&browser, &dir);
}

#[test]
fn a_four_seat_replay_keeps_every_rack_on_one_row_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("browser-four-test");
    let alice = format!("Bearer {}", token("alice", false));
    let auth = [("authorization", alice.as_str())];
    let id = create_game(port, &alice, r#"{"variant":"scrabble-en","opponents":[{"robot":"easy"},{"robot":"medium"},{"robot":"hard"}]}"#);
    let (status, _) = request(port, "POST", &format!("/games/{id}/resign"), &auth, "").unwrap();
    assert_eq!(status, 200);

    let (_driver, browser) = chromium(&dir);
    sign_in(&browser, port, "root");
    browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/_gm/games/{id}")}));
    let layout = browser.script(
        "const box = e => e.getBoundingClientRect(); const board = box(document.getElementById('board')); \
         return [0, 1, 2, 3].map(s => { const tiles = [...document.getElementById('tiles-' + s).children]; \
           const r = box(document.getElementById('rack-' + s)); \
           return { tiles: tiles.length, rows: new Set(tiles.map(t => Math.round(box(t).top))).size, \
             clear: r.right <= board.left || r.left >= board.right || r.bottom <= board.top || r.top >= board.bottom }; });",
    );
    for (seat, rack) in layout.as_array().unwrap().iter().enumerate() {
        assert_eq!(rack["tiles"], json!(7), "seat {seat}: {layout}");
        assert_eq!(rack["rows"], json!(1), "seat {seat}'s rack on one row: {layout}");
        assert_eq!(rack["clear"], json!(true), "seat {seat}'s rack clear of the board: {layout}");
    }
    browser.screenshot("replay-screenshot-four-seats.png");
    close(&browser, &dir);
}

#[test]
fn each_tile_variant_s_replay_board_has_its_own_layout_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("browser-layout-test");
    let (alice, admin) = (format!("Bearer {}", token("alice", false)), admin_cookie("root"));
    let (_driver, browser) = chromium(&dir);
    sign_in(&browser, port, "root");
    for (variant, under_start) in [("scrabble-en", "double word"), ("scrabble-ru", "double word"), ("erudit", "plain")] {
        let id = create_game(port, &alice, &format!(r#"{{"variant":"{variant}","opponents":[{{"robot":"easy"}}]}}"#));
        let (status, _) = request(port, "POST", &format!("/games/{id}/resign"), &[("authorization", &alice)], "").unwrap();
        assert_eq!(status, 200);
        let (status, timeline) = request(port, "GET", &format!("/_gm/games/{id}/timeline.json"), &[("cookie", &admin)], "").unwrap();
        assert_eq!(status, 200, "{timeline}");
        let timeline: Value = serde_json::from_str(&timeline).unwrap();
        let start = timeline["start"].as_str().unwrap();
        assert_eq!(start, "H8", "{variant}");
        // Every square painted as the variant's own layout has it; the start square starred over
        // its own premium (Эрудит's centre is plain).
        let expected: Vec<String> = timeline["premiums"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let name = format!("{}{}", char::from(b'A' + (i % 15) as u8), i / 15 + 1);
                let premium = p.as_str().unwrap();
                let class = if name == start { format!("{premium} star") } else { premium.to_string() };
                format!("{name}:{}", class.trim())
            })
            .collect();
        browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/_gm/games/{id}")}));
        let shown = browser.script(
            "return [...document.querySelectorAll('td.sq')].map(td => td.id.slice(3) + ':' + \
             [...td.classList].filter(c => c !== 'sq').join(' '))",
        );
        assert_eq!(shown, json!(expected), "{variant}'s board");
        let star = browser.script("return getComputedStyle(document.getElementById('sq-H8'), '::before').content");
        assert_eq!(star, json!("\"★\""), "{variant}: the start square's star");
        // The start square's colour is its premium's: a plain square's in Эрудит.
        let plain = expected.iter().position(|c| c.ends_with(':')).unwrap();
        let colours = browser.script(&format!(
            "const bg = id => getComputedStyle(document.getElementById(id)).backgroundColor; \
             return [bg('sq-H8'), bg('sq-{}'), bg('sq-B2')]",
            expected[plain].trim_end_matches(':')
        ));
        let same_as_plain = colours[0] == colours[1];
        assert_eq!(same_as_plain, under_start == "plain", "{variant}: {colours}");
        let legend = browser.script("return [...document.querySelectorAll('#legend li')].map(li => li.textContent)");
        let star_entry = format!("★H8, the centre: the first word covers it ({under_start})");
        assert!(legend.as_array().unwrap().iter().any(|l| l == &json!(star_entry)), "{variant}: {legend}");
        browser.screenshot(&format!("replay-layout-{variant}.png"));
    }
    close(&browser, &dir);
}
