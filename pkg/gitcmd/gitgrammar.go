package gitcmd

// gitGrammar is the option grammar of the git subcommands the gates judge,
// as git itself declares it (git <subcommand> -h, git 2.39): each item is
// a short letter, a long name, or both as s/long, followed by "=" when the
// option takes a value (attached, -mmsg --message=msg, or as the next
// word) and "?" when the value is optional and only attached (-u<mode>,
// --track=direct). git accepts any unambiguous prefix of a long name
// (--har is --hard, --no-ver --no-verify) and bundled short options (-qf
// is -q -f; -mx is -m x): canonGit spells every such form out, so that
// each gate reads the same options. A subcommand with subcommands of its
// own is keyed "stash push". Adding a subcommand is one reviewed line here
// and an example in TestGitGrammar.
// (A switch, not a map: a package-level map is built at every hook start.)
func gitGrammar(key string) (string, bool) {
	switch key {
	case "add":
		return "n/dry-run v/verbose i/interactive p/patch e/edit f/force u/update /renormalize N/intent-to-add A/all /ignore-removal /refresh /ignore-errors /ignore-missing /sparse /chmod= /pathspec-from-file= /pathspec-file-nul", true
	case "am":
		return "i/interactive 3/3way q/quiet s/signoff u/utf8 k/keep /keep-non-patch m/message-id /keep-cr /no-keep-cr c/scissors /quoted-cr= /whitespace= /ignore-space-change /ignore-whitespace /directory= /exclude= /include= C= p= /patch-format= /reject /resolvemsg= /continue r/resolved /skip /abort /quit /show-current-patch? /allow-empty /committer-date-is-author-date /ignore-date /rerere-autoupdate S/gpg-sign? /empty=", true
	case "apply":
		return "/exclude= /include= p= /no-add /stat /numstat /summary /check /index N/intent-to-add /cached /unsafe-paths /apply 3/3way /build-fake-ancestor= z C= /whitespace= /ignore-space-change /ignore-whitespace R/reverse /unidiff-zero /reject /allow-overlap v/verbose q/quiet /inaccurate-eof /recount /directory= /allow-empty", true
	case "archive":
		return "/format= /prefix= /add-file= /add-virtual-file= o/output= /worktree-attributes v/verbose l/list /remote= /exec=", true
	case "branch":
		return "v/verbose q/quiet t/track? u/set-upstream-to= /unset-upstream /color? r/remotes /contains= /no-contains= /abbrev? a/all d/delete D m/move M c/copy C l/list /show-current /create-reflog /edit-description f/force /merged= /no-merged= /column? /sort= /points-at= i/ignore-case /recurse-submodules /format=", true
	case "checkout":
		return "b= B= l /guess /overlay q/quiet /recurse-submodules? /progress m/merge /conflict= d/detach t/track? f/force /orphan= /overwrite-ignore /ignore-other-worktrees 2/ours 3/theirs p/patch /ignore-skip-worktree-bits /pathspec-from-file= /pathspec-file-nul", true
	case "checkout-index":
		return "a/all /ignore-skip-worktree-bits f/force q/quiet n/no-create u/index z /stdin /temp /prefix= /stage=", true
	case "cherry-pick":
		return "/quit /continue /abort /skip /cleanup= n/no-commit e/edit s/signoff m/mainline= /rerere-autoupdate /strategy= X/strategy-option= S/gpg-sign? x /ff /allow-empty /allow-empty-message /keep-redundant-commits", true
	case "clean":
		return "q/quiet n/dry-run f/force i/interactive d e/exclude= x X", true
	case "clone":
		return "v/verbose q/quiet /progress /reject-shallow n/no-checkout /bare /mirror l/local /no-hardlinks s/shared /recurse-submodules? /recursive? j/jobs= /template= /reference= /reference-if-able= /dissociate o/origin= b/branch= u/upload-pack= /depth= /shallow-since= /shallow-exclude= /single-branch /no-tags /shallow-submodules /separate-git-dir= c/config= /server-option= 4/ipv4 6/ipv6 /filter= /also-filter-submodules /remote-submodules /sparse /bundle-uri=", true
	case "commit":
		return "q/quiet v/verbose F/file= /author= /date= m/message= c/reedit-message= C/reuse-message= /fixup? /squash= /reset-author /trailer= s/signoff t/template= e/edit /cleanup= /status S/gpg-sign? a/all i/include /interactive p/patch o/only n/no-verify /dry-run /short /branch /ahead-behind /porcelain /long z/null /amend /no-post-rewrite u/untracked-files? /pathspec-from-file= /pathspec-file-nul", true
	case "commit-tree":
		return "p= m= F= S/gpg-sign?", true
	case "config":
		return "/global /system /local /worktree f/file= /blob= /get /get-all /get-regexp /get-urlmatch /replace-all /add /unset /unset-all /rename-section /remove-section l/list /fixed-value e/edit /get-color /get-colorbool t/type= /bool /int /bool-or-int /bool-or-str /path /expiry-date z/null /name-only /includes /show-origin /show-scope /default=", true
	case "fetch":
		return "v/verbose q/quiet /all /set-upstream a/append /atomic /upload-pack= f/force m/multiple t/tags n j/jobs= /prefetch p/prune P/prune-tags /recurse-submodules? /dry-run /write-fetch-head k/keep u/update-head-ok /progress /depth= /shallow-since= /shallow-exclude= /deepen= /unshallow /refetch /update-shallow /refmap= o/server-option= 4/ipv4 6/ipv6 /negotiation-tip= /negotiate-only /filter= /auto-maintenance /auto-gc /show-forced-updates /write-commit-graph /stdin", true
	case "gc":
		return "q/quiet /prune? /cruft /aggressive /auto /force /keep-largest-pack", true
	case "init":
		return "/template= /bare /shared? q/quiet /separate-git-dir= b/initial-branch= /object-format=", true
	case "merge":
		return "n /stat /summary /log? /squash /commit e/edit /cleanup= /ff /ff-only /rerere-autoupdate /verify-signatures s/strategy= X/strategy-option= m/message= F/file= /into-name= v/verbose q/quiet /abort /quit /continue /allow-unrelated-histories /progress S/gpg-sign? /autostash /overwrite-ignore /signoff /no-verify", true
	case "merge-file":
		return "p/stdout /diff3 /zdiff3 /ours /theirs /union /marker-size= q/quiet L=", true
	case "mv":
		return "v/verbose n/dry-run f/force k /sparse", true
	case "notes":
		return "/ref=", true
	case "pull":
		return "v/verbose q/quiet /progress /recurse-submodules? r/rebase? n /stat /log? /signoff? /squash /commit /edit /cleanup= /ff /ff-only /verify /verify-signatures /autostash s/strategy= X/strategy-option= S/gpg-sign? /allow-unrelated-histories /all a/append /upload-pack= f/force t/tags p/prune j/jobs? /dry-run k/keep /depth= /shallow-since= /shallow-exclude= /deepen= /unshallow /update-shallow /refmap= o/server-option= 4/ipv4 6/ipv6 /negotiation-tip= /show-forced-updates /set-upstream", true
	case "push":
		return "v/verbose q/quiet /repo= /all /branches /mirror d/delete /tags n/dry-run /porcelain f/force /force-with-lease? /force-if-includes /recurse-submodules= /thin /receive-pack= /exec= u/set-upstream /progress /prune /no-verify /follow-tags /signed? /atomic o/push-option= 4/ipv4 6/ipv6", true
	case "read-tree":
		return "/index-output= /empty v/verbose m /trivial /aggressive /reset /prefix= u /exclude-per-directory= i n/dry-run /no-sparse-checkout /debug-unpack /recurse-submodules? q/quiet", true
	case "rebase":
		return "/onto= /keep-base /no-verify q/quiet v/verbose n/no-stat /signoff /committer-date-is-author-date /reset-author-date C= /ignore-whitespace /whitespace= f/force-rebase /no-ff /continue /skip /abort /quit /edit-todo /show-current-patch /apply m/merge i/interactive /rerere-autoupdate /empty= /autosquash /update-refs S/gpg-sign? /autostash x/exec= r/rebase-merges? /fork-point s/strategy= X/strategy-option= /root /reschedule-failed-exec /reapply-cherry-picks", true
	case "remote":
		return "v/verbose", true
	case "replace":
		return "l/list d/delete e/edit g/graft /convert-graft-file f/force /raw /format=", true
	case "reset":
		return "q/quiet /no-refresh /mixed /soft /hard /merge /keep /recurse-submodules? p/patch N/intent-to-add /pathspec-from-file= /pathspec-file-nul", true
	case "restore":
		return "s/source= S/staged W/worktree /ignore-unmerged /overlay q/quiet /recurse-submodules? /progress m/merge /conflict= 2/ours 3/theirs p/patch /ignore-skip-worktree-bits /pathspec-from-file= /pathspec-file-nul", true
	case "revert":
		return "/quit /continue /abort /skip /cleanup= n/no-commit e/edit s/signoff m/mainline= /rerere-autoupdate /strategy= X/strategy-option= S/gpg-sign? /reference", true
	case "rm":
		return "n/dry-run q/quiet /cached f/force r /ignore-unmatch /sparse /pathspec-from-file= /pathspec-file-nul", true
	case "send-pack":
		return "v/verbose q/quiet /receive-pack= /exec= /remote= /all n/dry-run /mirror f/force /signed? /push-option= /progress /thin /atomic /stateless-rpc /stdin /helper-status /force-with-lease? /force-if-includes", true
	case "stash push":
		return "k/keep-index S/staged p/patch q/quiet u/include-untracked a/all m/message= /pathspec-from-file= /pathspec-file-nul", true
	case "stash pop":
		return "q/quiet /index", true
	case "stash apply":
		return "q/quiet /index", true
	case "stash drop":
		return "q/quiet", true
	case "stash save":
		return "k/keep-index S/staged p/patch q/quiet u/include-untracked a/all m/message=", true
	case "stash store":
		return "q/quiet m/message=", true
	case "switch":
		return "c/create= C/force-create= /guess /discard-changes q/quiet /recurse-submodules? /progress m/merge /conflict= d/detach t/track? f/force /orphan= /overwrite-ignore /ignore-other-worktrees", true
	case "symbolic-ref":
		return "q/quiet d/delete /short /recurse m=", true
	case "tag":
		return "l/list n? d/delete v/verify a/annotate m/message= F/file= e/edit s/sign /cleanup= u/local-user= f/force /create-reflog /column? /contains= /no-contains= /merged= /no-merged= /sort= /points-at= /format= /color? i/ignore-case", true
	case "update-index":
		return "q /ignore-submodules /add /replace /remove /unmerged /refresh /really-refresh /cacheinfo= /chmod= /assume-unchanged /no-assume-unchanged /skip-worktree /no-skip-worktree /ignore-skip-worktree-entries /info-only /force-remove z /stdin /index-info /unresolve g/again /ignore-missing /verbose /clear-resolve-undo /index-version= /split-index /untracked-cache /test-untracked-cache /force-untracked-cache /force-write-index /fsmonitor /fsmonitor-valid /no-fsmonitor-valid", true
	case "update-ref":
		return "m= d /no-deref z /stdin /create-reflog", true
	case "worktree add":
		return "f/force b= B= d/detach /checkout /lock /reason= q/quiet /track /guess-remote", true
	case "worktree remove":
		return "f/force", true
	case "worktree move":
		return "f/force", true
	case "worktree prune":
		return "n/dry-run v/verbose /expire=", true
	case "reflog expire":
		return "/dry-run /rewrite /updateref /verbose /expire= /expire-unreachable= /stale-fix /all /single-worktree", true
	case "reflog delete":
		return "/dry-run /rewrite /updateref /verbose", true
	case "subtree":
		return "h/help q d P/prefix= /annotate= b/branch= /ignore-joins /onto= /rejoin /squash m/message=", true
	case "filter-branch":
		return "/setup= /subdirectory-filter= /env-filter= /tree-filter= /index-filter= /parent-filter= /msg-filter= /commit-filter= /tag-name-filter= /prune-empty /original= d= f/force /state-branch=", true
	case "format-patch":
		return "n/numbered N/no-numbered s/signoff /stdout /cover-letter /numbered-files /suffix= /start-number= v/reroll-count= /filename-max-length= /rfc /cover-from-description= /subject-prefix= o/output-directory= k/keep-subject /no-binary /zero-commit /ignore-if-in-upstream p/no-stat /add-header= /to= /cc= /from? /in-reply-to= /attach? /inline? /thread? /signature= /base= /signature-file= q/quiet /progress /interdiff= /range-diff= /creation-factor= /force-in-body-from", true
	case "prune":
		return "n/dry-run v/verbose /progress /expire= /exclude-promisor-objects", true
	case "repack":
		return "a A /cruft /cruft-expiration= d f F n q/quiet l/local b/write-bitmap-index i/delta-islands /unpack-unreachable= k/keep-unreachable /window= /window-memory= /depth= /threads= /max-pack-size= /pack-kept-objects /keep-pack= g/geometric= m/write-midx /expire-to=", true
	case "sparse-checkout set":
		return "/cone /sparse-index /skip-checks /stdin", true
	case "notes add":
		return "m/message= F/file= c/reedit-message= C/reuse-message= /allow-empty f/force", true
	case "maintenance run":
		return "/auto /schedule= /quiet /task=", true
	}
	return "", false
}
