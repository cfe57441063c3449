//! The route table: every route's method and path, as API Gateway and the local gateway serve
//! them. One Lambda function serves each route.

use std::collections::HashMap;

/// One route of the API.
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
    /// `POST /games/{id}/timeout`
    ClaimTimeout,
    /// `POST /games/open`
    OpenGame,
    /// `GET /games/open`
    ListOpenGames,
    /// `POST /games/{id}/join`
    JoinGame,
    /// `POST /games/{id}/robot`
    AttachRobot,
    /// `POST /games/{id}/withdraw`: the opener takes back an open game nobody joined.
    WithdrawGame,
    /// `GET /games`: the caller's games, most recent activity first.
    ListMyGames,
    /// `GET /games/{id}/moves?after=N`: the journal as the caller's seat may see it.
    GetMoves,
    /// `POST /games/{id}/rematch`: a new game with the same players after a finished one.
    Rematch,
    /// `POST /games/{id}/decline`: decline the rematch one is invited to.
    DeclineRematch,
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
    /// `GET /` (public): the player web app's page.
    WebApp,
    /// `GET /web/{id}` (public): one of the web app's files (its modules, `app.css`, `config.json`).
    WebAsset,
    /// `GET /variants` (public): every variant's family, seats, tile set and board layout.
    Variants,
    /// `GET /me`: the caller's own account (id, name, ratings).
    Me,
    /// `GET /accounts/{id}/ratings`: an account's ratings and recent rated games.
    AccountRatings,
    /// `GET /ratings/leaderboard?variant=&speed=`: the established players, best first.
    Leaderboard,
    /// `POST /games/{id}/draw`: draw one tile of a tournament game's first-move draw.
    DrawTile,
    /// `GET /games/{id}/analysis`: a finished game's post-game analysis.
    Analysis,
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
}

impl Route {
    /// Every route.
    pub const ALL: [Route; 46] = [
        Route::CreateGame,
        Route::GetGame,
        Route::SubmitMove,
        Route::PreviewMove,
        Route::Hint,
        Route::Resign,
        Route::Challenge,
        Route::ClaimTimeout,
        Route::OpenGame,
        Route::ListOpenGames,
        Route::JoinGame,
        Route::AttachRobot,
        Route::WithdrawGame,
        Route::ListMyGames,
        Route::GetMoves,
        Route::Rematch,
        Route::DeclineRematch,
        Route::AdminReplay,
        Route::AdminTimeline,
        Route::AdminAccount,
        Route::AdminTournament,
        Route::AdminGames,
        Route::AdminSignOut,
        Route::AdminSignIn,
        Route::WebApp,
        Route::WebAsset,
        Route::Variants,
        Route::Me,
        Route::AccountRatings,
        Route::Leaderboard,
        Route::DrawTile,
        Route::Analysis,
        Route::CreateTournament,
        Route::ListTournaments,
        Route::GetTournament,
        Route::RegisterPlayer,
        Route::WithdrawPlayer,
        Route::EnterTournament,
        Route::LeaveTournament,
        Route::PairRound,
        Route::StartRound,
        Route::RecordForfeit,
        Route::CloseTournament,
        Route::ExportTournament,
        Route::ListLiveGames,
        Route::UpdateSettings,
    ];

    /// The HTTP method.
    pub const fn method(self) -> &'static str {
        match self {
            Route::GetGame
            | Route::Hint
            | Route::ListOpenGames
            | Route::ListMyGames
            | Route::GetMoves
            | Route::AdminReplay
            | Route::AdminTimeline
            | Route::AdminAccount
            | Route::AdminTournament
            | Route::AdminGames
            | Route::AdminSignIn
            | Route::WebApp
            | Route::WebAsset
            | Route::Variants
            | Route::Me
            | Route::AccountRatings
            | Route::Leaderboard
            | Route::ListTournaments
            | Route::Analysis
            | Route::GetTournament
            | Route::ExportTournament
            | Route::ListLiveGames => "GET",
            Route::CreateGame
            | Route::SubmitMove
            | Route::PreviewMove
            | Route::Resign
            | Route::Challenge
            | Route::ClaimTimeout
            | Route::OpenGame
            | Route::JoinGame
            | Route::AttachRobot
            | Route::WithdrawGame
            | Route::Rematch
            | Route::DeclineRematch
            | Route::AdminSignOut
            | Route::DrawTile
            | Route::CreateTournament
            | Route::RegisterPlayer
            | Route::WithdrawPlayer
            | Route::EnterTournament
            | Route::LeaveTournament
            | Route::PairRound
            | Route::StartRound
            | Route::RecordForfeit
            | Route::CloseTournament => "POST",
            Route::UpdateSettings => "PUT",
        }
    }

    /// The path template, with `{id}` for the game's (or tournament's) id and `{round}` for a
    /// round's number.
    pub const fn path(self) -> &'static str {
        match self {
            Route::CreateGame | Route::ListMyGames => "/games",
            Route::GetGame => "/games/{id}",
            Route::SubmitMove | Route::GetMoves => "/games/{id}/moves",
            Route::PreviewMove => "/games/{id}/preview",
            Route::Hint => "/games/{id}/hint",
            Route::Resign => "/games/{id}/resign",
            Route::Challenge => "/games/{id}/challenge",
            Route::ClaimTimeout => "/games/{id}/timeout",
            Route::OpenGame | Route::ListOpenGames => "/games/open",
            Route::JoinGame => "/games/{id}/join",
            Route::AttachRobot => "/games/{id}/robot",
            Route::WithdrawGame => "/games/{id}/withdraw",
            Route::Rematch => "/games/{id}/rematch",
            Route::DeclineRematch => "/games/{id}/decline",
            Route::AdminReplay => "/_gm/games/{id}",
            Route::AdminTimeline => "/_gm/games/{id}/timeline.json",
            Route::AdminAccount => "/_gm/accounts/{id}",
            Route::AdminTournament => "/_gm/tournaments/{id}",
            Route::AdminGames => "/_gm",
            Route::AdminSignOut => "/_gm/signout",
            Route::AdminSignIn => "/_gm/signin",
            Route::WebApp => "/",
            Route::WebAsset => "/web/{id}",
            Route::Variants => "/variants",
            Route::Me => "/me",
            Route::AccountRatings => "/accounts/{id}/ratings",
            Route::Leaderboard => "/ratings/leaderboard",
            Route::DrawTile => "/games/{id}/draw",
            Route::Analysis => "/games/{id}/analysis",
            Route::CreateTournament | Route::ListTournaments => "/tournaments",
            Route::GetTournament => "/tournaments/{id}",
            Route::RegisterPlayer => "/tournaments/{id}/players",
            Route::WithdrawPlayer => "/tournaments/{id}/withdraw",
            Route::EnterTournament => "/tournaments/{id}/enter",
            Route::LeaveTournament => "/tournaments/{id}/leave",
            Route::PairRound => "/tournaments/{id}/rounds",
            Route::StartRound => "/tournaments/{id}/rounds/{round}/start",
            Route::RecordForfeit => "/tournaments/{id}/forfeits",
            Route::CloseTournament => "/tournaments/{id}/close",
            Route::ExportTournament => "/tournaments/{id}/export",
            Route::ListLiveGames => "/games/live",
            Route::UpdateSettings => "/me/settings",
        }
    }

    /// The Lambda function (crate and binary) serving the route.
    pub const fn function(self) -> &'static str {
        match self {
            Route::CreateGame => "create-game",
            Route::GetGame => "get-game",
            Route::SubmitMove => "submit-move",
            Route::PreviewMove => "preview-move",
            Route::Hint => "hint",
            Route::Resign => "resign",
            Route::Challenge => "challenge",
            Route::ClaimTimeout => "claim-timeout",
            Route::OpenGame => "open-game",
            Route::ListOpenGames => "list-open-games",
            Route::JoinGame => "join-game",
            Route::AttachRobot => "attach-robot",
            Route::WithdrawGame => "withdraw-game",
            Route::ListMyGames => "list-my-games",
            Route::GetMoves => "get-moves",
            Route::Rematch => "rematch",
            Route::DeclineRematch => "decline-rematch",
            Route::AdminReplay => "admin-replay",
            Route::AdminTimeline => "admin-timeline",
            Route::AdminAccount => "admin-account",
            Route::AdminTournament => "admin-tournament",
            Route::AdminGames => "admin-games",
            Route::AdminSignOut => "admin-signout",
            Route::AdminSignIn => "admin-signin",
            Route::Me => "me",
            Route::AccountRatings => "account-ratings",
            Route::Leaderboard => "leaderboard",
            Route::DrawTile => "draw-tile",
            Route::Analysis => "analysis",
            Route::CreateTournament => "create-tournament",
            Route::ListTournaments => "list-tournaments",
            Route::GetTournament => "get-tournament",
            Route::RegisterPlayer => "register-player",
            Route::WithdrawPlayer => "withdraw-player",
            Route::EnterTournament => "enter-tournament",
            Route::LeaveTournament => "leave-tournament",
            Route::PairRound => "pair-round",
            Route::StartRound => "start-round",
            Route::RecordForfeit => "record-forfeit",
            Route::CloseTournament => "close-tournament",
            Route::ExportTournament => "export-tournament",
            Route::ListLiveGames => "list-live-games",
            Route::UpdateSettings => "update-settings",
            // The public, unchanging reads: no identity, no database.
            Route::WebApp | Route::WebAsset | Route::Variants => "web",
        }
    }

    /// Whether only the admin group may call the route.
    pub const fn admin_only(self) -> bool {
        matches!(self, Route::AdminReplay | Route::AdminTimeline | Route::AdminAccount | Route::AdminTournament | Route::AdminGames)
    }

    /// Whether the route serves anyone, without a token: the admin sign-in, the web app and
    /// the variants.
    pub const fn public(self) -> bool {
        matches!(self, Route::AdminSignIn | Route::WebApp | Route::WebAsset | Route::Variants)
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
