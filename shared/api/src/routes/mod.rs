//! The route table: every route's one declaration ([`RouteSpec`] in `table`: method, path,
//! function, who may call it, its Lambda's memory, timeout, reservation and throttle, its
//! operation id and summary), from which the functions, the template's function rows, the API
//! document's path skeleton and the route tables of README.md and docs/API.md are derived
//! (`emit`, `wordgame routes --emit … --check`). One Lambda function serves each route.

mod emit;
mod table;

use std::collections::HashMap;

pub use emit::{openapi_paths, route_table, sam_functions};
pub use table::{Access, Lambda, ROUTES, RouteSpec};

/// One route of the API, in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// `POST /games`
    CreateGame,
    /// `GET /games/{id}`
    GetGame,
    /// `POST /games/{id}/moves`
    SubmitMove,
    /// `POST /games/{id}/preview`
    PreviewMove,
    /// `GET /games/{id}/hint`
    Hint,
    /// `POST /games/{id}/resign`
    Resign,
    /// `POST /games/{id}/challenge`: challenge the play just made (a game under a challenge rule).
    Challenge,
    /// `POST /games/{id}/withdraw`: the opener takes back an open game nobody joined.
    WithdrawGame,
    /// `POST /games/{id}/timeout`
    ClaimTimeout,
    /// `POST /games/open`
    OpenGame,
    /// `GET /games/open`
    ListOpenGames,
    /// `GET /games`: the caller's games, most recent activity first.
    ListMyGames,
    /// `GET /games/{id}/moves?after=N`: the journal as the caller's seat may see it.
    GetMoves,
    /// `POST /games/{id}/rematch`: a new game with the same players after a finished one.
    Rematch,
    /// `POST /games/{id}/decline`: decline the rematch one is invited to.
    DeclineRematch,
    /// `POST /games/{id}/join`
    JoinGame,
    /// `POST /games/{id}/robot`
    AttachRobot,
    /// `GET /_gm/games/{id}` (admin): the replay page, or the game in GCG when the id ends in
    /// `.gcg`.
    AdminReplay,
    /// `GET /_gm/games/{id}/timeline.json` (admin)
    AdminTimeline,
    /// `GET /_gm/accounts/{id}` (admin)
    AdminAccount,
    /// `GET /_gm/tournaments/{id}` (admin): a tournament's standings and pairings, with links to
    /// every game's replay.
    AdminTournament,
    /// `GET /_gm/` (admin): recent games, filtered and paginated.
    AdminGames,
    /// `POST /_gm/signout` (admin session): ends the session, given the page's CSRF token.
    AdminSignOut,
    /// `GET /_gm/signin` (public): the identity provider's sign-in (authorization code + PKCE),
    /// ending in the admin session cookie.
    AdminSignIn,
    /// `GET /me`: the caller's own account (id, name, ratings).
    Me,
    /// `GET /accounts/{id}/ratings`: an account's ratings and recent rated games.
    AccountRatings,
    /// `GET /ratings/leaderboard?variant=&speed=`: the established players, best first.
    Leaderboard,
    /// `GET /games/{id}/analysis`: a finished game's post-game analysis.
    Analysis,
    /// `POST /games/{id}/draw`: draw one tile of a tournament game's first-move draw.
    DrawTile,
    /// `POST /tournaments` (director): create a tournament.
    CreateTournament,
    /// `GET /tournaments?mine=`: tournaments, newest first.
    ListTournaments,
    /// `GET /tournaments/{id}`: a tournament, its pairings and standings.
    GetTournament,
    /// `POST /tournaments/{id}/players` (director): register a player.
    RegisterPlayer,
    /// `POST /tournaments/{id}/withdraw` (director, or the player): withdraw a player.
    WithdrawPlayer,
    /// `POST /tournaments/{id}/enter` (the player alone): enter, or accept an invitation.
    EnterTournament,
    /// `POST /tournaments/{id}/leave` (the player alone): decline an invitation, or take back an
    /// entry before the tournament starts.
    LeaveTournament,
    /// `POST /tournaments/{id}/rounds` (director): pair the next round.
    PairRound,
    /// `POST /tournaments/{id}/rounds/{round}/start` (director): create the round's games.
    StartRound,
    /// `POST /tournaments/{id}/forfeits` (director): record a forfeit.
    RecordForfeit,
    /// `POST /tournaments/{id}/close` (director): close the tournament.
    CloseTournament,
    /// `GET /tournaments/{id}/export`: the results as the standard tournament software's `.t`
    /// file.
    ExportTournament,
    /// `GET /games/live?variant=&tournament_id=`: the games being played that may be watched.
    ListLiveGames,
    /// `PUT /me/settings`: the caller's settings (who may watch their games).
    UpdateSettings,
    /// `GET /` (public): the player web app's page.
    WebApp,
    /// `GET /web/{id}` (public): one of the web app's files (its modules, `app.css`, `config.json`).
    WebAsset,
    /// `GET /variants` (public): every variant's family, seats, tile set and board layout.
    Variants,
}

impl Route {
    /// Every route, in the table's order.
    pub const ALL: [Route; 46] = {
        let mut all = [Route::CreateGame; 46];
        let mut i = 0;
        while i < 46 {
            all[i] = ROUTES[i].route;
            i += 1;
        }
        all
    };

    /// The route's declaration.
    pub const fn spec(self) -> &'static RouteSpec {
        &ROUTES[self as usize]
    }

    /// The HTTP method.
    pub const fn method(self) -> &'static str {
        self.spec().method
    }

    /// The path template, with `{id}` for the game's (or tournament's) id and `{round}` for a
    /// round's number.
    pub const fn path(self) -> &'static str {
        self.spec().path
    }

    /// The Lambda function (a binary of the `functions` crate) serving the route.
    pub const fn function(self) -> &'static str {
        self.spec().function
    }

    /// Whether only the admin group may call the route.
    pub const fn admin_only(self) -> bool {
        matches!(self.spec().access, Access::Admin)
    }

    /// Whether the route serves anyone, without a token: the admin sign-in, the web app and
    /// the variants.
    pub const fn public(self) -> bool {
        matches!(self.spec().access, Access::SignIn | Access::Open)
    }

    /// The route and path parameters matching `method` and `path`, if any. As in API Gateway,
    /// a literal segment wins over a parameter (`GET /games/open` is not a game id).
    pub fn find(method: &str, path: &str) -> Option<(Route, HashMap<String, String>)> {
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        let mut routes: Vec<Route> = Route::ALL.into_iter().filter(|r| r.method().eq_ignore_ascii_case(method)).collect();
        routes.sort_by_key(|r| r.path().matches('{').count());
        routes.into_iter().find_map(|r| {
            let template: Vec<&str> = r.path().trim_end_matches('/').split('/').collect();
            if template.len() != parts.len() {
                return None;
            }
            let mut params = HashMap::new();
            for (t, p) in template.iter().zip(&parts) {
                if let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                    if p.is_empty() {
                        return None;
                    }
                    params.insert(name.to_string(), (*p).to_string());
                } else if t != p {
                    return None;
                }
            }
            Some((r, params))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_enum_s_order_and_a_function_s_routes_share_its_lambda() {
        for (i, spec) in ROUTES.iter().enumerate() {
            assert_eq!(spec.route as usize, i, "{:?} is not at its place in ROUTES", spec.route);
            for other in ROUTES.iter().filter(|o| o.function == spec.function) {
                assert_eq!((other.lambda, other.access), (spec.lambda, spec.access), "{}", spec.function);
            }
        }
    }

    #[test]
    fn paths_find_their_routes_and_parameters() {
        let (r, p) = Route::find("POST", "/games/abc/moves").unwrap();
        assert_eq!((r, p["id"].as_str()), (Route::SubmitMove, "abc"));
        assert_eq!(Route::find("GET", "/games/abc/").unwrap().0, Route::GetGame);
        assert_eq!(Route::find("POST", "/games").unwrap().0, Route::CreateGame);
        assert!(Route::find("DELETE", "/games/abc").is_none());
        assert!(Route::find("GET", "/games//hint").is_none());
        assert!(Route::find("GET", "/nope").is_none());
        assert_eq!(Route::find("GET", "/games/open").unwrap().0, Route::ListOpenGames);
        assert_eq!(Route::find("POST", "/games/open").unwrap().0, Route::OpenGame);
        assert_eq!(Route::find("POST", "/games/x/join").unwrap().0, Route::JoinGame);
        assert_eq!(Route::find("GET", "/_gm/").unwrap().0, Route::AdminGames);
        assert_eq!(Route::find("GET", "/").unwrap().0, Route::WebApp);
        assert_eq!(Route::find("GET", "/web/app.js").unwrap().0, Route::WebAsset);
        assert!(Route::find("GET", "/web/").is_none());
        for r in Route::ALL {
            let path = r.path().replace("{id}", "x");
            assert_eq!(Route::find(r.method(), &path).map(|f| f.0), Some(r));
        }
    }
}

#[cfg(test)]
mod local_only {
    use super::Route;

    #[test]
    fn the_route_table_has_no_development_route() {
        // `/_dev/*` (the development accounts and their tokens) is the local gateway's alone:
        // no function serves it, so no deployment can.
        for r in Route::ALL {
            assert!(!r.path().starts_with("/_dev"), "{r:?}");
        }
        assert!(Route::find("GET", "/_dev/accounts").is_none());
        assert!(Route::find("POST", "/_dev/token").is_none());
    }
}
