;;; biki-test.el --- Batch tests of biki.el against a real `biki serve'  -*- lexical-binding: t; -*-

;; From the repository root, with Biki installed (`biki' on PATH), or BIKI naming a biki:
;;   emacs --batch -Q -l Editors/emacs/tests/biki-test.el -f ert-run-tests-batch-and-exit

;;; Code:

(require 'package)
;; Debian's elpa-eglot on Emacs 28 (-Q leaves the system's package directory out); Emacs 29 has
;; eglot built in.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(add-to-list 'load-path (expand-file-name ".." (file-name-directory (or load-file-name buffer-file-name))))
(require 'ert)
(require 'biki)

(setq biki-program (or (getenv "BIKI") "biki"))
(unless (executable-find biki-program)
  (error "These tests need Biki: install it (biki install --prefix ~/.local, with ~/.local/bin \
on PATH), or set BIKI to a biki executable"))
(setq biki-speak nil)
(defvar biki-test-state (make-temp-file "biki-emacs-state-" t))
(setenv "XDG_STATE_HOME" biki-test-state)
(setenv "XDG_DATA_HOME" (expand-file-name "data" biki-test-state))
(setq eglot-sync-connect t)
(biki-setup)

(defun biki-test-wait (predicate &optional seconds)
  "Process output until PREDICATE holds or SECONDS (default 20) pass; its last value."
  (let ((deadline (+ (float-time) (or seconds 20))) (value nil))
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun biki-test-file (name text)
  "A new file NAME in a fresh directory, holding TEXT."
  (let ((file (expand-file-name name (make-temp-file "biki-emacs-" t))))
    (with-temp-file file (insert text))
    file))

(defconst biki-test-broken-pack
  "{\n  \"format\": 1,\n  \"id\": \"mine\",\n  \"title\": \"日本🎌\", \"version\": \"1.0.0\", \"topicz\": [],\n  \"topics\": []\n}\n")

(ert-deftest biki-pack-files-get-diagnostics-and-eglot-shuts-down-cleanly ()
  (let* ((buffer (find-file-noselect (biki-test-file "mine.json" biki-test-broken-pack))))
    (with-current-buffer buffer
      (should (eq major-mode 'biki-pack-mode))
      (run-hooks 'post-command-hook)  ; eglot-ensure connects after the command that opened the file
      (let ((server (biki-test-wait #'eglot-current-server)))
        (should server)
        (let ((diagnostic (biki-test-wait
                           (lambda ()
                             ;; Flymake asks its backends on timers, which batch Emacs runs only
                             ;; while waiting; ask it each time round.
                             (flymake-start)
                             (cl-find-if (lambda (d) (string-match-p "topicz" (flymake-diagnostic-text d)))
                                         (flymake-diagnostics))))))
          (should diagnostic)
          ;; Line 4, at "topicz": Emacs counts characters, the server UTF-16 units (🎌 is two).
          (save-excursion
            (goto-char (flymake-diagnostic-beg diagnostic))
            (should (= (line-number-at-pos) 4))
            (should (looking-at "\"topicz\""))))
        ;; eglot sends shutdown and exit with null params: the server must answer shutdown with
        ;; a result (not -32602), so eglot goes on to send exit.  (Emacs 28's jsonrpc.el then
        ;; deletes the process at once, so its exit status says nothing about the server.)
        (let ((process (jsonrpc--process server))
              (events (jsonrpc-events-buffer server)))
          (eglot-shutdown server nil nil t)
          (should-not (process-live-p process))
          (with-current-buffer events
            (let ((log (buffer-string)))
              (should (string-match-p ":method \"shutdown\"" log))
              (should (string-match-p ":method \"exit\"" log))
              (should-not (string-match-p "-32602" log))
              (should-not (string-match-p "Timed out" log)))))))
    (kill-buffer buffer)))

;; A pack with a misspelt key and a variable used by name.
(defconst biki-test-authored-pack
  "{
  \"format\": 1, \"id\": \"kitchen\", \"title\": \"Kitchen\", \"version\": \"1.0.0\",
  \"topics\": [
    {
      \"id\": \"plates\", \"titel\": \"Plates\", \"description\": \"Plates.\", \"category\": \"counter\", \"skills\": [\"kana\"],
      \"variables\": {\"n\": {\"range\": {\"min\": 1, \"max\": 12}}},
      \"question\": {\"parts\": [{\"number\": \"n\", \"counter\": \"本\"}], \"answer\": {\"value\": \"n\"}}
    }
  ]
}
")

(ert-deftest biki-eglot-offers-fixes-definitions-outline-and-completion ()
  (let ((buffer (find-file-noselect (biki-test-file "kitchen.json" biki-test-authored-pack))))
    (with-current-buffer buffer
      (run-hooks 'post-command-hook)
      (let ((server (biki-test-wait #'eglot-current-server)))
        (should server)
        (biki-test-wait (lambda () (flymake-start) (flymake-diagnostics)))
        ;; The quick fix for "titel", as eglot's code actions see it.
        (goto-char (point-min))
        (search-forward "\"titel\"")
        (let ((actions (jsonrpc-request server :textDocument/codeAction
                                        (list :textDocument (eglot--TextDocumentIdentifier)
                                              :range (list :start (eglot--pos-to-lsp-position (match-beginning 0))
                                                           :end (eglot--pos-to-lsp-position (match-end 0)))
                                              :context (list :diagnostics [])))))
          (should (equal (mapcar (lambda (action) (plist-get action :title)) actions) '("Change \"titel\" to \"title\""))))
        ;; imenu, from the outline.
        (let ((index (funcall imenu-create-index-function)))
          (should (cl-some (lambda (entry) (string-match-p "plates" (format "%s" entry))) index)))
        ;; M-. on the answer's "n" lands on the variable.
        (goto-char (point-min))
        (search-forward "\"value\": \"n")
        (backward-char 1)
        (let ((xrefs (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot))))
          (should xrefs)
          (let ((location (xref-item-location (car xrefs))))
            (should (= (xref-location-line location) 6))))  ; the "variables" line
        ;; completion-at-point inside "category": "
        (goto-char (point-min))
        (search-forward "\"category\": \"")
        (let ((capf (eglot-completion-at-point)))
          (should capf)
          (should (member "money" (all-completions "" (nth 2 capf)))))
        (eglot-shutdown server)))
    (kill-buffer buffer)))

(ert-deftest biki-other-json-is-left-alone ()
  (let ((buffer (find-file-noselect (biki-test-file "package.json" "{\"name\": \"app\", \"version\": \"1.0.0\"}\n"))))
    (with-current-buffer buffer
      (should-not (eq major-mode 'biki-pack-mode))
      (run-hooks 'post-command-hook)
      (should-not (eglot-current-server)))
    (kill-buffer buffer)))

(ert-deftest biki-a-quiz-in-a-buffer ()
  (let* ((biki-quiz-seed 3)
         (generated (biki--request :biki/generate (list :topicId "counters.hon" :seed 3 :count 2)))
         (first (number-to-string (plist-get (aref (plist-get generated :questions) 0) :answer))))
    (biki-quiz "counters.hon" 2)
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p "\\`\\[1/2\\] 本 (1–10)" (buffer-string)))
      (should (equal (biki--quiz-prompt) "Answer (本): "))
      (should (biki-quiz-submit "0"))
      (should (string-match-p "✗ not 0; try again, or skip" (buffer-string)))
      (should (string-match-p "\\[1/2\\]" (buffer-string)))
      (should (biki-quiz-submit ""))  ; an empty answer repeats the question
      (should (string-match-p "\\[1/2\\]" (buffer-string)))
      (should (biki-quiz-submit first))
      (should (string-match-p "\\[2/2\\]" (buffer-string)))
      (should (string-match-p (concat "✓ " first "本") (buffer-string)))
      (should-not (biki-quiz-submit "skip"))
      (should (string-match-p "— finished" (buffer-string)))
      (should (string-match-p "Correct: 1 of 2" (buffer-string)))
      (should (string-match-p "Skipped: 1" (buffer-string))))
    (biki-stats)
    (with-current-buffer "*Biki stats*"
      ;; The skip is shown beside the accuracy it lowers, and the forms with their state.
      (should (string-match-p "Answers: 2   Correct: 1   Skipped: 1" (buffer-string)))
      (should (string-match-p "skips count as misses" (buffer-string))))))

(ert-deftest biki-a-new-quiz-ends-the-one-left-open ()
  (let ((biki-quiz-seed 2))
    (biki-quiz "numbers.beginner" 2)
    (let ((old (with-current-buffer biki-quiz-buffer-name (plist-get biki--quiz :session))))
      (biki-quiz "numbers.beginner" 2)
      (let ((err (should-error (biki--request :biki/endSession (list :sessionId old))
                               :type 'user-error)))
        (should (string-match-p "session" (cadr err)))))
    (should-not (biki-quiz-submit "quit"))))

(ert-deftest biki-review-asks-the-weak-forms-first ()
  (let ((biki-quiz-seed 1))
    (biki-review 3)
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p "\\`\\[1/3\\] Review" (buffer-string)))
      (should-not (biki-quiz-submit "quit"))
      (should (string-match-p "Review — finished" (buffer-string))))))

(ert-deftest biki-missed-asks-again-in-rounds-until-right ()
  ;; Seed 4 asks 六本 (ろっぽん) first; skipped, it is what the quiz missed.
  (let ((biki-quiz-seed 4) (biki-quiz-skill "kana"))
    (biki-quiz "counters.hon" 1)
    (with-current-buffer biki-quiz-buffer-name
      (should-not (biki-quiz-submit "skip")))
    (biki-missed "counters.hon")
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p "\\`\\[round 1: 1/1\\] Missed in counters.hon" (buffer-string)))
      (should (string-match-p "6本" (buffer-string)))
      (should (biki-quiz-submit "skip"))
      (should (string-match-p "\\`\\[round 2: 1/1\\]" (buffer-string)))
      (should-not (biki-quiz-submit "ろっぽん"))
      (should (string-match-p "Rounds: 2: each right at the first try" (buffer-string))))))

(ert-deftest biki-feedback-gives-the-hint-and-stats-show-the-form-weak ()
  ;; Seed 4 asks 六本 (ろっぽん) first.
  (let ((biki-quiz-seed 4) (biki-quiz-skill "kana"))
    (biki-quiz "counters.hon" 1)
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p "六本\\|6本" (buffer-string)))
      (should (biki-quiz-submit "rokuhon"))
      (should (string-match-p "You typed ろくほん\\." (buffer-string)))
      (should-not (biki-quiz-submit "skip")))
    (biki-stats)
    (with-current-buffer "*Biki stats*"
      (should (string-match-p "Forms, weakest first" (buffer-string)))
      (should (string-match-p "^  weak .*本/final:6" (buffer-string))))))

(ert-deftest biki-which-counter-shows-the-thing ()
  (let ((biki-quiz-seed 3))
    (biki-quiz "counters.which-counter" 2)
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p "バナナ (ばなな, banana) × 8" (buffer-string)))
      (should (equal (biki--quiz-prompt) "Count with its counter (5本 or ごほん): "))
      ;; Ended without an answer, so the stats other tests count stay as they are.
      (should-not (biki-quiz-submit "quit"))
      (should (string-match-p "— finished" (buffer-string))))))

(ert-deftest biki-errors-speak-of-commands ()
  (let ((err (should-error (biki-quiz "counters.hno" 2) :type 'user-error)))
    (should (string-match-p "no topic \"counters.hno\"" (cadr err)))
    (should (string-match-p "counters.hon" (cadr err)))
    (should (string-match-p "M-x biki-topics" (cadr err)))
    (should-not (string-match-p "biki/" (cadr err)))))

(ert-deftest biki-topics-complete ()
  (biki-topics)
  (with-current-buffer "*Biki topics*"
    (should (string-match-p "^counters\\.hon " (buffer-string)))))

;; A pack with a counter of its own, used by name in a topic.
(defconst biki-test-counter-pack
  "{
  \"format\": 1, \"id\": \"kitchen\", \"title\": \"Kitchen\", \"version\": \"1.0.0\",
  \"counters\": [
    {\"id\": \"sara\", \"symbols\": [\"皿\"], \"reading\": \"さら\", \"whole\": {\"1\": \"ひとさら\", \"2\": \"ふたさら\"}, \"final\": {\"1\": \"いっさら\", \"8\": \"はっさら\", \"10\": \"じゅっさら\"}}
  ],
  \"topics\": [
    {
      \"id\": \"plates\", \"title\": \"Plates\", \"description\": \"Plates.\", \"category\": \"counter\", \"skills\": [\"kana\"],
      \"variables\": {\"n\": {\"range\": {\"min\": 1, \"max\": 12}}},
      \"question\": {\"parts\": [{\"number\": \"n\", \"counter\": \"sara\"}], \"answer\": {\"value\": \"n\"}}
    }
  ]
}
")

(ert-deftest biki-m-dot-goes-to-the-servers-definition ()
  (let ((buffer (find-file-noselect (biki-test-file "kitchen.json" biki-test-counter-pack))))
    (with-current-buffer buffer
      ;; js-mode binds M-. to js-find-symbol, which knows nothing of packs.
      (should (eq (key-binding (kbd "M-.")) #'xref-find-definitions))
      (run-hooks 'post-command-hook)
      (let ((server (biki-test-wait #'eglot-current-server)))
        (should server)
        (goto-char (point-min))
        (search-forward "\"counter\": \"sa")
        ;; Definitions come from the server's first check of the pack.
        (should (biki-test-wait (lambda ()
                                  (xref-backend-definitions
                                   'eglot (xref-backend-identifier-at-point 'eglot)))))
        ;; What M-. runs, run as M-. runs it; one definition, so point moves there.
        (let ((xref-prompt-for-identifier nil))
          (call-interactively (key-binding (kbd "M-."))))
        (should (= (line-number-at-pos) 4))
        (should (looking-at-p "{\"id\": \"sara\""))  ; the counter's own definition
        (eglot-shutdown server)))
    (kill-buffer buffer)))

(defun biki-test-mode-of (name text)
  "The major mode a new file NAME holding TEXT opens in."
  (let ((buffer (find-file-noselect (biki-test-file name text))))
    (prog1 (buffer-local-value 'major-mode buffer)
      (kill-buffer buffer))))

(ert-deftest biki-only-packs-open-in-pack-mode ()
  (let ((eglot-server-programs nil))  ; the mode alone, without a server
    ;; Packs, by schema or by their three keys, also mid-edit (not valid JSON).
    (should (eq (biki-test-mode-of "a.json" "{\"$schema\": \"../biki-pack.schema.json\"}")
                'biki-pack-mode))
    (should (eq (biki-test-mode-of "b.json" "{\"format\": 1, \"id\": \"b\", \"topics\": []}")
                'biki-pack-mode))
    (should (eq (biki-test-mode-of "c.json" "{\"format\": 1, \"id\": \"c\", \"topics\": [")
                'biki-pack-mode))
    ;; An npm manifest that mentions format and topics, by its keys or by its name.
    (let ((npm "{\"name\": \"app\", \"version\": \"1.0.0\", \"id\": \"x\", \"format\": \"esm\",
 \"topics\": [], \"scripts\": {\"build\": \"tsc\"}}"))
      (should-not (eq (biki-test-mode-of "manifest.json" npm) 'biki-pack-mode))
      (should-not (eq (biki-test-mode-of "package.json" npm) 'biki-pack-mode)))
    (dolist (name '("package.json" "tsconfig.json" "composer.json"))
      (should-not (eq (biki-test-mode-of name "{\"format\": 1, \"id\": \"p\", \"topics\": []}")
                      'biki-pack-mode)))
    ;; The keys must be the object's own, and all three.
    (should-not (eq (biki-test-mode-of "d.json" "{\"format\": 1, \"topics\": []}") 'biki-pack-mode))
    (should-not (eq (biki-test-mode-of "e.json" "{\"x\": {\"format\": 1, \"id\": \"e\", \"topics\": []}}")
                    'biki-pack-mode))
    ;; The schema itself, and files that are not JSON.
    (should-not (eq (biki-test-mode-of "biki-pack.schema.json" "{\"$id\": \"biki-pack.schema.json\"}")
                    'biki-pack-mode))
    (should-not (eq (biki-test-mode-of "notes.txt" "{\"format\": 1, \"id\": \"t\", \"topics\": []}")
                    'biki-pack-mode))))

(ert-deftest biki-which-counter-says-why-the-thing-takes-its-counter ()
  ;; Seed 6 asks 飛行機 × 6: 6機 or 6台.
  (let ((biki-quiz-seed 6) (biki-quiz-skill "counter"))
    (biki-quiz "counters.which-counter" 2)
    (with-current-buffer biki-quiz-buffer-name
      (biki-quiz-skip)
      (should (string-match-p "機 counts aircraft: aeroplanes, helicopters\\." (buffer-string)))
      (should (string-match-p "台 counts machines and vehicles" (buffer-string))))))

(ert-deftest biki-the-verdict-gives-the-hint-and-the-standard-reading ()
  ;; Seed 1 asks 10本 first: じっぽん is right, but じゅっぽん is what is usually said.
  (let ((biki-quiz-seed 1) (biki-quiz-skill "kana"))
    (biki-quiz "counters.hon" 2)
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p "  10本" (buffer-string)))
      (should (biki-quiz-submit "juuhon"))
      (should (string-match-p "✗ not juuhon; try again, or skip\\. You typed じゅうほん\\." (buffer-string)))
      (should (biki-quiz-submit "じっぽん"))
      (should (string-match-p "✓ じゅっぽん|じっぽん  (十本, じゅっぽん / じっぽん)  (accepted, though uncommon: the usual reading is じゅっぽん)"
                              (buffer-string)))
      ;; Skip and end, as the keys in the quiz buffer and the menu run them.
      (biki-quiz-skip)
      (should (string-match-p "— finished" (buffer-string))))
    (should-error (biki-quiz-skip) :type 'user-error)))

(ert-deftest biki-strict-refuses-an-uncommon-reading ()
  ;; Seed 1 asks 10本 first: じっぽん is accepted but uncommon, so a strict quiz refuses it.
  (let ((biki-quiz-seed 1) (biki-quiz-skill "kana") (biki-strict t))
    (biki-quiz "counters.hon" 1)
    (with-current-buffer biki-quiz-buffer-name
      (should (biki-quiz-submit "じっぽん"))
      (should (string-match-p "✗ not じっぽん; try again, or skip\\. じっぽん is uncommon, and this quiz is strict: \
the usual reading is じゅっぽん" (buffer-string)))
      (should-not (biki-quiz-submit "じゅっぽん"))
      (should (string-match-p "— finished" (buffer-string))))))

(ert-deftest biki-keys-menus-and-options ()
  ;; A prefix map of every command, for the user to bind (C-c LETTER is the user's).
  (should (keymapp (symbol-function 'biki-command-map)))
  (dolist (binding '(("q" . biki-quiz) ("r" . biki-review) ("m" . biki-missed) ("s" . biki-stats) ("n" . biki-quiz-skip)
                     ("e" . biki-quiz-end) ("a" . biki-quiz-answer) ("t" . biki-topics)))
    (should (eq (lookup-key biki-command-map (car binding)) (cdr binding))))
  (should (eq (lookup-key biki-quiz-answer-map (kbd "C-c C-n")) #'biki-quiz-skip))
  (should (eq (lookup-key biki-quiz-mode-map "n") #'biki-quiz-skip))
  ;; The Biki menu in pack and quiz buffers, and under Tools.
  (dolist (map (list biki-pack-mode-map biki-quiz-mode-map (lookup-key global-map [menu-bar tools])))
    (let ((menu (lookup-key map (if (eq map (lookup-key global-map [menu-bar tools]))
                                    [Biki] [menu-bar Biki]))))
      (should menu)
      (dolist (command '(biki-quiz biki-review biki-missed biki-quiz-skip biki-stats))
        (should (where-is-internal command (list menu))))))
  ;; Options a user sets, in one customize group.
  (let ((options (mapcar #'car (get 'biki 'custom-group))))
    (dolist (option '(biki-program biki-server-arguments biki-quiz-questions biki-review-questions
                      biki-quiz-skill biki-quiz-seed biki-strict biki-speak biki-voice biki-speech-rate
                      biki-speech-pitch))
      (should (memq option options))
      (should (documentation-property option 'variable-documentation)))))

(ert-deftest biki-a-missing-biki-says-how-to-install-it ()
  (let ((biki-program "biki-that-is-not-installed") (biki--connection nil))
    (let ((err (should-error (biki-topics) :type 'user-error)))
      (should (string-match-p "cannot find the command .biki-that-is-not-installed." (cadr err)))
      (should (string-match-p "biki install" (cadr err))))
    ;; A pack still opens, and says once why it gets no diagnostics.
    (let ((buffer (find-file-noselect (biki-test-file "lonely.json" biki-test-broken-pack))))
      (with-current-buffer buffer
        (should (eq major-mode 'biki-pack-mode))
        (run-hooks 'post-command-hook)
        (should-not (eglot-current-server)))
      (kill-buffer buffer)
      (should (string-match-p "Packs open without diagnostics"
                              (with-current-buffer "*Warnings*" (buffer-string)))))))

(ert-deftest biki-el-is-clean-for-byte-compile-checkdoc-and-package-lint ()
  (let* ((lint (expand-file-name "biki-lint.el" (file-name-directory (symbol-file 'biki-test-wait))))
         (status nil)
         (output (with-temp-buffer
                   (setq status (call-process (expand-file-name invocation-name invocation-directory)
                                              nil t nil "--batch" "-Q" "-l" lint))
                   (buffer-string))))
    (message "%s" output)
    ;; Without package-lint the other two still count; the skip says what to install.
    (when (equal status 2)
      (ert-skip (string-trim output)))
    (should (equal status 0))
    (should (string-match-p "biki-lint: clean" output))))

(ert-deftest biki-says-which-engine-speaks ()
  "M-x biki-speech-engine reports what \"biki say --engine\" says: Open JTalk, espeak-ng,
what to install, or that the engine cannot be heard here; biki-voice is passed on to it."
  (let ((biki-voice nil))
    (biki-speech-engine)
    (let ((engine (biki--speech-engine)))
      (should (string-match-p "\\`\\(Speaking with \\(Open JTalk\\|espeak-ng\\)\\|Nothing can speak\\|\\(Open JTalk\\|espeak-ng\\) would speak, but\\)" (cdr engine)))
      (should (eq (car engine) (string-prefix-p "Speaking" (cdr engine))))))
  (let ((biki-voice "/voices/x.htsvoice"))
    (should (equal (last (biki--say-command "はっぽん" "八本") 4)
                   '("はっぽん" "八本" "--voice" "/voices/x.htsvoice"))))
  (put 'biki--speech-engine 'answer nil))

(ert-deftest biki-speech-settings-reach-biki-say-and-the-session ()
  "A voice's name (not expanded as a file), the rate and the pitch reach \"biki say\" and the
session's speech, so the server makes the audio ahead as it will be said."
  (let ((biki-voice "jm_kumo") (biki-speech-rate 0.5) (biki-speech-pitch -3))
    (should (equal (last (biki--say-command "はっぽん" "八本") 8)
                   '("はっぽん" "八本" "--voice" "jm_kumo" "--rate" "0.5" "--pitch" "-3")))
    (should (equal (biki--speech-params) '(:voice "jm_kumo" :rate 0.5 :pitch -3))))
  (let ((biki-voice "~/voices/x.htsvoice"))
    (should (equal (car (last (biki--say-command "はっぽん")))
                   (expand-file-name "voices/x.htsvoice" (getenv "HOME")))))
  (let ((biki-voice nil) (biki-speech-rate nil) (biki-speech-pitch nil))
    (should (equal (biki--say-command "はっぽん") (list (biki--program) "say" "はっぽん")))
    (should-not (biki--speech-params))))

(ert-deftest biki-every-session-asks-for-the-speech-style ()
  "Quizzes, reviews and missed rounds each start their session with the speech settings."
  (let ((biki-voice "jm_kumo") (biki-speech-rate 0.8) (biki-speech-pitch nil) (biki-speak nil)
        (biki-quiz-skill nil) (sent '()) (request (symbol-function 'biki--request)))
    (cl-letf (((symbol-function 'biki--request)
               (lambda (method &optional params)
                 (when (eq method :biki/startSession) (push params sent))
                 (funcall request method params))))
      (biki-quiz "counters.hon" 1)
      (biki-quiz-end)
      (biki-review 1)
      (biki-quiz-end))
    (should (= (length sent) 2))
    (dolist (params sent)
      (should (equal (plist-get params :speech) '(:voice "jm_kumo" :rate 0.8))))))

(ert-deftest biki-replay-says-the-question-again-and-counts-nothing ()
  "M-x biki-replay (l in the quiz, C-c C-l while answering) runs the same \"biki say\" again."
  (let ((biki-quiz-seed 3) (biki-quiz-skill "listening") (biki-speak t) (biki-speech-rate 0.8)
        (said '()))
    (cl-letf (((symbol-function 'biki--speech-engine) (lambda () '(t . "Speaking with a stand-in.")))
              ((symbol-function 'start-process)
               (lambda (_name _buffer &rest command) (push command said) nil)))
      (biki-quiz "counters.hon" 2)
      (should (= (length said) 1))
      (should (member "--rate" (car said)))
      (with-temp-buffer (biki-replay))
      (should (= (length said) 2))
      (should (equal (nth 0 said) (nth 1 said)))
      (with-current-buffer biki-quiz-buffer-name
        (should (string-match-p "\\`\\[1/2\\]" (buffer-string)))
        ;; Heard, the reading is not shown: it is the answer. Unheard, it is, to be answered.
        (should (string-match-p "🔊 listen" (buffer-string)))
        (let ((biki-speak nil))
          (biki--quiz-render)
          (should (string-match-p "No audio: sound is off.*\n  Read it instead: [ぁ-ん]+" (buffer-string)))))
      (cl-letf (((symbol-function 'biki--speech-engine) (lambda () '(nil . "Nothing can speak."))))
        (should (string-match-p "no audio: Nothing can speak"
                                (cadr (should-error (biki-replay) :type 'user-error)))))
      (should (= (length said) 2))
      (biki-quiz-end)
      (should-error (biki-replay) :type 'user-error)))
  (should (eq (lookup-key biki-quiz-mode-map "l") #'biki-replay))
  (should (eq (lookup-key biki-quiz-answer-map (kbd "C-c C-l")) #'biki-replay)))

(add-hook 'kill-emacs-hook #'biki-shutdown)

;;; biki-test.el ends here
