//! The player web app in real headless Chromium, played as a player plays it: the page at `/`
//! of `wordgame serve`, the development sign-in, and then only the app's own controls (clicks,
//! keys typed into the board and the word box); the test calls no API route itself. A whole
//! Scrabble game and a whole Nối từ game against a robot, and two browsers (alice and bob, each
//! its own Chromium) inviting each other and playing by push. Screenshots at desktop and phone
//! widths are saved under `target/tmp/` (`webapp-*.png`). Without Chromium the tests say so and
//! skip (CI installs it).

use std::path::Path;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

use crate::browser::{Browser, chromium, close, have_chromium};
use crate::common::{exchange, start_server};

/// The most turns a whole game may take here before the test calls it stuck.
const MAX_TURNS: usize = 80;

/// Polls `condition` (a JavaScript expression) until it holds, for at most 60 seconds: generous,
/// so a loaded machine cannot fail a page that gets there; a passing test waits only until it does.
fn wait(browser: &Browser, condition: &str, what: &str) {
    let until = Instant::now() + Duration::from_secs(60);
    let script = format!("return !!({condition})");
    while browser.script(&script) != json!(true) {
        if Instant::now() >= until {
            let text = browser.script("return document.body.innerText");
            panic!("waited 60 s for {what} ({condition}); the page shows:\n{}", text.as_str().unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The element `css` matches, as WebDriver names it.
fn element(browser: &Browser, css: &str) -> String {
    let found = browser.call("POST", "/element", json!({"using": "css selector", "value": css}));
    found.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).unwrap().to_string()
}

/// Types `text` into the element `css` as keys (WebDriver's element send keys).
fn type_into(browser: &Browser, css: &str, text: &str) {
    let id = element(browser, css);
    browser.call("POST", &format!("/element/{id}/value"), json!({"text": text}));
}

/// Chooses `value` in the select `css`, by clicking its option.
fn choose(browser: &Browser, css: &str, value: &str) {
    browser.click(&format!("{css} option[value=\"{value}\"]"));
}

/// Sizes the window to `width` × `height` CSS pixels.
fn resize(browser: &Browser, width: u32, height: u32) {
    browser.call("POST", "/window/rect", json!({"width": width, "height": height}));
}

/// Saves a screenshot as `target/tmp/webapp-<name>.png` and checks it is a PNG.
fn screenshot(browser: &Browser, name: &str) {
    let png = browser.call("GET", "/screenshot", json!({}));
    let bytes = base64::engine::general_purpose::STANDARD.decode(png.as_str().unwrap()).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{name} is a PNG");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("webapp-{name}.png"));
    std::fs::write(&shot, &bytes).unwrap();
    eprintln!("screenshot: {} ({} bytes)", shot.display(), bytes.len());
}

/// Screenshots at a desktop width, then at a 360-pixel phone's, where nothing may stick out
/// sideways; back to the desktop after.
fn screenshots(browser: &Browser, name: &str) {
    screenshot(browser, &format!("{name}-desktop"));
    resize(browser, 360, 780);
    wait(browser, "window.innerWidth <= 360", "the phone width");
    let overflow = browser.script("return document.documentElement.scrollWidth - document.documentElement.clientWidth");
    assert_eq!(overflow, json!(0), "{name}: the page is wider than a 360-pixel screen");
    // A finished game's result, below the board on a phone, is what its screenshot shows.
    browser.script("const r = document.getElementById('result'); if (r) r.scrollIntoView(); return null");
    screenshot(browser, &format!("{name}-mobile"));
    resize(browser, 1200, 1000);
    wait(browser, "window.innerWidth > 800", "the desktop width");
}

/// Opens the app on `port` and signs in as the development account `account` with the picker.
fn sign_in(browser: &Browser, port: u16, account: &str) {
    browser.call("POST", "/url", json!({"url": format!("http://127.0.0.1:{port}/")}));
    wait(browser, &format!("document.querySelector('button[data-account=\"{account}\"]')"), "the account picker");
    browser.click(&format!("button[data-account=\"{account}\"]"));
    wait(browser, "document.querySelector('#my-id')", "the lobby");
    assert!(browser.script("return document.getElementById('whoami').textContent").as_str().unwrap().contains(account));
}

/// Creates a game in the lobby's form: `variant` against `opponent` (a robot level, or a
/// friend's account id).
fn create(browser: &Browser, variant: &str, opponent: &str) {
    choose(browser, "#variant", variant);
    if ["easy", "medium", "hard"].contains(&opponent) {
        choose(browser, "#opponent", opponent);
    } else {
        choose(browser, "#opponent", "friend");
        type_into(browser, "#friend-id", opponent);
    }
    browser.click("#create");
    wait(browser, "location.hash.startsWith('#/g/') && document.querySelector('#turn')", "the new game");
}

/// Whether it is the player's turn (the hint button enabled) or the game is over.
const READY: &str = "document.querySelector('#result') || (document.querySelector('#hint') && !document.querySelector('#hint').disabled)";

/// The tiles the hint placed: (square, letter, blank), in board order.
fn pending(browser: &Browser) -> Vec<(String, String, bool)> {
    let tiles = browser.script(
        "return [...document.querySelectorAll('.sq .tile.pending')].map(t => [t.parentNode.dataset.square, \
         t.querySelector('.letter').textContent.toUpperCase(), t.classList.contains('blank')])",
    );
    tiles.as_array().unwrap().iter().map(|t| (t[0].as_str().unwrap().into(), t[1].as_str().unwrap().into(), t[2] == true)).collect()
}

/// How a turn's tiles go on the board.
#[derive(Clone, Copy, PartialEq)]
enum Placing {
    /// The hint's "use" button.
    Hint,
    /// The hint's tiles taken back and put down again by clicks (a blank through its dialog).
    Clicks,
    /// The hint's tiles taken back and typed on the board with the keyboard.
    Keys,
}

/// One turn of a tile game through the controls: a hint placed `how`, its live preview
/// awaited, then played; a pass when there is no play. Returns whether tiles were played.
fn tile_turn(browser: &Browser, how: Placing) -> bool {
    browser.click("#hint");
    wait(browser, "document.querySelector('.use-hint') || document.querySelector('p#hints')", "the hints");
    if browser.script("return !document.querySelector('.use-hint')") == json!(true) {
        browser.click("#pass");
        return false;
    }
    browser.click(".use-hint");
    let tiles = pending(browser);
    assert!(!tiles.is_empty());
    if how != Placing::Hint {
        browser.click("#recall");
        wait(browser, "!document.querySelector('.sq .tile.pending')", "the recall");
    }
    if how == Placing::Clicks {
        for (square, letter, blank) in &tiles {
            if *blank {
                browser.click("#rack .tile.blank:not(.used)");
                browser.click(&format!("#sq-{square}"));
                wait(browser, "document.getElementById('blank-dialog').open", "the blank's dialog");
                browser.click(&format!("#blank-letters button[data-letter=\"{letter}\"]"));
            } else {
                browser.click(&format!("#rack .tile[data-letter=\"{letter}\"]:not(.used)"));
                browser.click(&format!("#sq-{square}"));
            }
        }
    }
    if how == Placing::Keys {
        let (first, _, _) = &tiles[0];
        let down = tiles.iter().all(|(s, _, _)| s[..1] == first[..1]) && tiles.len() > 1;
        browser.click(&format!("#sq-{first}"));
        wait(browser, "document.activeElement && document.activeElement.id === 'board'", "the board's focus");
        let word: String = tiles.iter().map(|(_, l, _)| l.as_str()).collect();
        type_into(browser, "#board", &format!("{}{word}", if down { " " } else { "" }));
    }
    wait(browser, &format!("document.querySelectorAll('.sq .tile.pending').length === {}", tiles.len()), "the tiles placed");
    wait(browser, "/\\d+ points/.test(document.getElementById('preview').textContent)", "the live preview's score");
    browser.click("#play");
    true
}

#[test]
fn webapp_plays_a_whole_scrabble_game_against_a_robot_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("webapp-tile-test");
    // The page and its files are served to anyone, the page with its content policy.
    let (status, head, page) = exchange(port, "GET", "/", &[], "").unwrap();
    assert_eq!(status, 200);
    assert!(head.to_ascii_lowercase().contains("content-security-policy: default-src 'none'; script-src 'self'"), "{head}");
    assert!(page.contains("/web/app.js"));
    let (_driver, browser) = chromium(&dir);
    sign_in(&browser, port, "alice");
    // The interface speaks the browser's language or the one chosen.
    for (lang, create) in [("ru", "Создать игру"), ("vi", "Tạo ván"), ("en", "Create game")] {
        choose(&browser, "#lang", lang);
        wait(&browser, &format!("document.getElementById('create').textContent === '{create}'"), lang);
    }
    create(&browser, "scrabble-en", "easy");
    wait(&browser, "document.querySelector('#board')", "the board");
    let centre = browser.script("return [...document.getElementById('sq-H8').classList].slice(0, 3)");
    assert_eq!(centre, json!(["sq", "dw", "start"]), "Scrabble's centre: a double word, starred");
    let mut played = 0;
    for turn in 0..MAX_TURNS {
        wait(&browser, READY, "the player's turn or the end");
        if browser.script("return !!document.querySelector('#result')") == json!(true) {
            break;
        }
        let how = match played {
            1 => Placing::Clicks,
            2 => Placing::Keys,
            _ => Placing::Hint,
        };
        if played == 3 {
            // Mid-game, tiles placed and previewed: the board's screenshots.
            browser.click("#hint");
            wait(&browser, "document.querySelector('.use-hint') || document.querySelector('p#hints')", "the hints");
            if browser.script("return !!document.querySelector('.use-hint')") == json!(true) {
                browser.click(".use-hint");
                wait(&browser, "/\\d+ points/.test(document.getElementById('preview').textContent)", "the preview");
                screenshots(&browser, "tile-midgame");
                browser.click("#recall");
            }
        }
        if tile_turn(&browser, how) {
            played += 1;
        }
        // The move is sent: the turn passes (the robot thinks), or the game ends.
        wait(&browser, "document.querySelector('#result') || document.getElementById('hint').disabled", "the move's answer");
        assert!(turn + 1 < MAX_TURNS, "the game did not end in {MAX_TURNS} turns");
    }
    wait(&browser, "document.querySelector('#result')", "the result");
    let result = browser.script("return document.getElementById('result').innerText").as_str().unwrap().to_string();
    assert!(result.contains(" won") || result.contains("Nobody won") || result.contains("Shared win"), "{result}");
    assert!(played >= 4, "{played} plays");
    screenshots(&browser, "tile-finished");
    browser.click("#history-link");
    wait(&browser, "document.querySelectorAll('table.history tbody tr').length >= 8", "the move history");
    close(&browser, &dir);
}

#[test]
fn webapp_plays_a_whole_noi_tu_game_against_a_robot_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("webapp-chain-test");
    let (_driver, browser) = chromium(&dir);
    sign_in(&browser, port, "alice");
    create(&browser, "noi-tu", "easy");
    wait(&browser, "document.querySelector('#chain')", "the chain");
    let mut words = 0;
    for turn in 0..MAX_TURNS {
        wait(&browser, READY, "the player's turn or the end");
        if browser.script("return !!document.querySelector('#result')") == json!(true) {
            break;
        }
        browser.click("#hint");
        wait(&browser, "document.querySelector('.use-hint')", "the hints");
        // The word with the most answers, so the game lasts a few turns.
        browser.click("#hints li:last-child .use-hint");
        wait(&browser, "document.getElementById('word').value !== ''", "the hint's word in the box");
        if words == 1 {
            // Typed as a player types it, tone marks and all.
            let word = browser.script("return document.getElementById('word').value").as_str().unwrap().to_string();
            browser.script("const w = document.getElementById('word'); w.value = ''; w.dispatchEvent(new Event('input'));");
            type_into(&browser, "#word", &word);
            wait(&browser, &format!("document.getElementById('word').value === {}", json!(word)), "the typed word");
        }
        wait(&browser, "/\\d+ points/.test(document.getElementById('preview').textContent)", "the word's live preview");
        if words == 2 {
            screenshots(&browser, "chain-midgame");
        }
        browser.click("#play-word");
        words += 1;
        wait(&browser, "document.querySelector('#result') || document.getElementById('play-word').disabled", "the word's answer");
        assert!(turn + 1 < MAX_TURNS, "the chain did not end in {MAX_TURNS} turns");
    }
    wait(&browser, "document.querySelector('#result')", "the result");
    let chain = browser.script("return document.querySelectorAll('#chain li').length").as_u64().unwrap();
    assert!(chain as usize > words, "the chain shows the opening and every word: {chain} for {words} of ours");
    screenshots(&browser, "chain-finished");
    close(&browser, &dir);
}

#[test]
fn webapp_two_players_invite_each_other_and_play_by_push_in_chromium() {
    if !have_chromium() {
        return;
    }
    let (_server, port, dir) = start_server("webapp-two-test");
    let (_bob_driver, bob) = chromium(&dir.join("bob"));
    let (_alice_driver, alice) = chromium(&dir.join("alice"));
    sign_in(&bob, port, "bob");
    let bob_id = bob.script("return document.getElementById('my-id').textContent").as_str().unwrap().to_string();
    wait(&bob, "document.getElementById('push-state').classList.contains('live')", "bob's push socket");
    sign_in(&alice, port, "alice");
    wait(&alice, "document.getElementById('push-state').classList.contains('live')", "alice's push socket");
    create(&alice, "erudit", &bob_id);
    wait(
        &alice,
        "document.querySelector('#open-panel') && document.querySelector('#open-panel').innerText.includes('bob')",
        "the invitation sent",
    );
    // Эрудит's centre is plain (no premium class), starred as the start.
    assert_eq!(alice.script("return [...document.getElementById('sq-H8').classList].slice(0, 2)"), json!(["sq", "start"]));
    // The invitation reaches bob's lobby by push (the lobby's poll is a minute away while live).
    wait(&bob, "document.querySelector('.invitation .accept')", "bob's invitation");
    bob.click(".invitation .accept");
    wait(&bob, "document.querySelector('#board') && document.getElementById('turn').textContent !== ''", "bob's game");
    wait(&alice, "!document.querySelector('#open-panel')", "alice sees the game start");
    // Each plays twice; the other sees each move arrive.
    let tiles_shown = |b: &Browser| b.script("return document.querySelectorAll('.sq .tile:not(.pending)').length").as_u64().unwrap();
    let mine = |b: &Browser| b.script(&format!("return !!({READY})")) == json!(true);
    for _ in 0..4 {
        let until = Instant::now() + Duration::from_secs(60);
        while !mine(&alice) && !mine(&bob) {
            assert!(Instant::now() < until, "nobody's turn came");
            std::thread::sleep(Duration::from_millis(50));
        }
        let (mover, other) = if mine(&alice) { (&alice, &bob) } else { (&bob, &alice) };
        let before = tiles_shown(other);
        if tile_turn(mover, Placing::Hint) {
            wait(other, &format!("document.querySelectorAll('.sq .tile:not(.pending)').length > {before}"), "the move pushed to the other");
        }
        wait(other, READY, "the other's turn");
    }
    screenshots(&bob, "two-players-midgame");
    // Alice resigns; both see the finished game.
    wait(&alice, "document.querySelector('#resign')", "the resign button");
    alice.click("#resign");
    alice.click("#resign-yes");
    wait(&alice, "document.querySelector('#result')", "alice's result");
    wait(&bob, "document.querySelector('#result')", "bob's result by push");
    let result = bob.script("return document.getElementById('result').innerText").as_str().unwrap().to_string();
    assert!(result.contains("bob") && result.contains("alice resigned"), "{result}");
    screenshots(&bob, "two-players-finished");
    let _ = crate::common::request(alice.port, "DELETE", &format!("/session/{}", alice.session), &[], "");
    close(&bob, &dir);
}
