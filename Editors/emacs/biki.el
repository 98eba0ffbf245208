;;; biki.el --- Drill Japanese number readings; check Biki topic packs  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The Biki authors

;; Author: Biki maintainers <maintainers@users.noreply.a-seed-b95ad975.example>
;; Maintainer: Biki maintainers <maintainers@users.noreply.a-seed-b95ad975.example>
;; URL: https://a-seed-b95ad975.example/biki
;; SPDX-License-Identifier: MIT
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (eglot "1.9"))
;; Keywords: languages, i18n, games

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person obtaining a copy of this
;; software and associated documentation files (the "Software"), to deal in the Software
;; without restriction, including without limitation the rights to use, copy, modify, merge,
;; publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
;; to whom the Software is furnished to do so, subject to the conditions of the MIT License in
;; the LICENSE file at the root of Biki's repository, which must accompany every copy.
;; THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.

;;; Commentary:

;; Biki drills the readings of Japanese numbers: plain numbers, money, durations, dates and
;; times, and counters with their sound changes (8本 はっぽん).  This package talks to
;; `biki serve', Biki's JSON-RPC server, for two things:
;;
;; - Topic packs (the JSON files Biki's quizzes come from) open in `biki-pack-mode', where
;;   eglot shows Biki's diagnostics as you type and offers its quick fixes, completion,
;;   outline (imenu) and definitions (on a counter or variable, M-.).  A JSON file is a
;;   pack when it names Biki's schema in "$schema", or has "format", "id" and "topics" at
;;   the top and is not an npm, TypeScript or Composer manifest.  No other buffer is sent
;;   to Biki.
;; - M-x biki-quiz drills a topic: the question in the *Biki quiz* buffer, your answer in the
;;   minibuffer, the verdict with the reading, and at the end a summary of what to practise.
;;   M-x biki-review practises the forms you are due to review or weak at, from every topic;
;;   M-x biki-stats shows your accuracy and your forms, weakest first.
;;   Listening questions are read aloud by Open JTalk when it is installed, else espeak-ng;
;;   M-x biki-speech-engine says which.
;;
;; Biki itself must be installed, so that `biki' runs by name (see the README).  Then:
;;
;;   (require 'biki)
;;   (biki-setup)
;;   (global-set-key (kbd "C-c b") 'biki-command-map)   ; any key you like
;;
;; The "Biki" menu (in pack and quiz buffers, and under Tools) has every command;
;; M-x customize-group RET biki lists the options.

;;; Code:

(require 'seq)
(require 'subr-x)
(require 'easymenu)
(require 'eglot)
(require 'jsonrpc)
(require 'js)

(defgroup biki nil
  "Drill Japanese number readings, and check Biki topic packs."
  :group 'applications
  :group 'languages
  :prefix "biki-"
  :link '(function-link biki-quiz)
  :link '(emacs-commentary-link "biki"))

(defcustom biki-program "biki"
  "The biki command: a name looked up in variable `exec-path', or a file name.
Both the quizzes and `biki-pack-mode' buffers run \"biki serve\" with it."
  :type 'string)

(defcustom biki-server-arguments nil
  "More arguments for \"biki serve\", such as (\"--packs\" \"/home/me/packs\").
File names are passed as they are written, so give absolute ones.
Takes effect for servers started after it is set."
  :type '(repeat string))

(defcustom biki-quiz-questions 10
  "How many questions `biki-quiz' asks, unless a prefix argument says."
  :type 'natnum)

(defcustom biki-review-questions 20
  "How many questions `biki-review' asks, unless a prefix argument says."
  :type 'natnum)

(defcustom biki-quiz-skill nil
  "Which skill quizzes drill; nil for the topic's own default.
A topic that does not offer the skill refuses to start, and says so."
  :type '(choice (const :tag "The topic's default" nil)
                 (const :tag "Reading: see kanji numerals, type the number" "reading")
                 (const :tag "Listening: hear the reading, type the number" "listening")
                 (const :tag "Kana: see the number, type its reading" "kana")
                 (const :tag "Counter: see a thing, type how many with its counter" "counter")))

(defcustom biki-quiz-seed nil
  "A seed that replays the same questions; nil for new questions each time."
  :type '(choice (const :tag "New questions each time" nil) natnum))

(defcustom biki-strict nil
  "Whether readings Biki accepts but marks uncommon are refused.
Such as じっぷん, where the usual reading is じゅっぷん.  When nil they count
as right, and the usual reading is named."
  :type 'boolean)

(defcustom biki-speak t
  "Whether listening questions are read aloud, as \"biki say\" does.
That is with Open JTalk, which has Japanese pitch accent, when it and a voice
are installed (sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic
alsa-utils, and python3 -m pip install pyopenjtalk-plus), else with
espeak-ng.  \\[biki-speech-engine] says which."
  :type 'boolean)

(defcustom biki-voice nil
  "The voice to speak with: a name \"biki say --voices\" lists, or a file.
A name such as mei_normal (Open JTalk) or jm_kumo (Kokoro), or an Open JTalk
.htsvoice file.  nil uses the environment variable BIKI_VOICE, else the mei
voice pyopenjtalk installed."
  :type '(choice (const :tag "BIKI_VOICE, else mei" nil)
                 (string :tag "A voice's name")
                 (file :tag "An .htsvoice file")))

(defcustom biki-speech-rate nil
  "How fast to speak: from 0.5 (twice as slow) to 2 (twice as fast).
nil is the voice's own speed."
  :type '(choice (const :tag "The voice's own" nil) number))

(defcustom biki-speech-pitch nil
  "How much higher (or, below 0, lower) to speak, in semitones from -12 to 12.
nil is the voice's own pitch."
  :type '(choice (const :tag "The voice's own" nil) number))

;;; The biki command

(defun biki--program ()
  "Return the biki executable's file name.
Signal an error that says how to install Biki when it cannot be found."
  (or (executable-find biki-program)
      (user-error "Biki: cannot find the command `%s' on `exec-path'; install Biki \
(biki install --prefix ~/.local, with ~/.local/bin on PATH), or set `biki-program'"
                  biki-program)))

(defun biki--server-command (&optional _interactive)
  "The command line of \"biki serve\", as eglot and the quizzes run it."
  (append (list (biki--program) "serve") biki-server-arguments))

;;; Pack files

(defconst biki--schema-name "biki-pack.schema.json"
  "What a pack's \"$schema\" ends with.")

(defconst biki--manifest-names
  '("package.json" "package-lock.json" "tsconfig.json" "jsconfig.json" "composer.json")
  "JSON files other tools own, which are never packs whatever their keys.")

(defun biki--manifest-p (has-key)
  "Return non-nil if an object is an npm manifest; HAS-KEY asks for its keys.
Such a manifest may mention \"format\" or \"topics\", but a pack never has
\"name\" beside scripts or dependencies."
  (and (funcall has-key "name") (funcall has-key "version")
       (seq-some has-key '("scripts" "dependencies" "devDependencies" "peerDependencies"))))

(defun biki--pack-object-p (object)
  "Whether OBJECT, a parsed JSON value, is a pack by its top-level keys."
  (and (hash-table-p object)
       (let ((has-key (lambda (key) (not (eq (gethash key object 'biki--absent) 'biki--absent))))
             (schema (gethash "$schema" object)))
         (or (and (stringp schema) (string-suffix-p biki--schema-name schema))
             (and (funcall has-key "format") (funcall has-key "id") (funcall has-key "topics")
                  (not (biki--manifest-p has-key)))))))

(defun biki--pack-text-p ()
  "Whether the current buffer, not valid JSON as it is, mentions a pack's keys.
A pack is often broken mid-edit; the server judges such text by the same words."
  (let* ((text (buffer-substring-no-properties (point-min) (point-max)))
         (has-key (lambda (key) (string-match-p (concat "\"" (regexp-quote key) "\"[ \t\n\r]*:")
                                                text))))
    (or (string-match-p (regexp-quote biki--schema-name) text)
        (and (funcall has-key "format") (funcall has-key "id") (funcall has-key "topics")
             (not (biki--manifest-p has-key))))))

(defun biki-pack-file-name-p (file)
  "Return non-nil if FILE may be a pack by its name.
It must be a .json file, and neither a schema nor a manifest."
  (and (string-suffix-p ".json" file)
       (not (string-suffix-p ".schema.json" file))
       (not (member (file-name-nondirectory file) biki--manifest-names))))

(defun biki-pack-buffer-p ()
  "Whether the current buffer visits a Biki topic pack.
It does when its file is named as a pack may be (see `biki-pack-file-name-p'),
and its top-level object names Biki's schema in \"$schema\" or has \"format\",
\"id\" and \"topics\" without being an npm manifest.  Every buffer this
accepts, the server diagnoses as a pack too."
  (and buffer-file-name
       (biki-pack-file-name-p buffer-file-name)
       (save-excursion
         (save-restriction
           (widen)
           (goto-char (point-min))
           ;; Most JSON mentions neither; a large data file is then not parsed.
           (and (or (search-forward biki--schema-name nil t) (search-forward "\"topics\"" nil t))
                (progn
                  (goto-char (point-min))
                  (condition-case nil
                      (biki--pack-object-p (json-parse-buffer :object-type 'hash-table))
                    ((json-error json-unavailable) (biki--pack-text-p)))))))))

(defvar biki-pack-mode-map
  (let ((map (make-sparse-keymap)))
    ;; js-mode binds M-. to its own tag search, which knows nothing of packs.
    (define-key map [remap js-find-symbol] #'xref-find-definitions)
    map)
  "Keymap for `biki-pack-mode'.")

;;;###autoload
(define-derived-mode biki-pack-mode js-mode "Biki-Pack"
  "Major mode for Biki topic packs: JSON, checked by Biki's server through eglot.
`biki-setup' opens packs in this mode and starts eglot for them.  \\<biki-pack-mode-map>
\\[xref-find-definitions] goes from a counter or variable to its definition.

\\{biki-pack-mode-map}"
  (setq-local js-indent-level 2)
  (add-hook 'eglot-managed-mode-hook #'biki--check-now nil t))

(defun biki--check-now ()
  "Show the server's diagnostics as soon as it sends them.
eglot connects from `post-command-hook', where Flymake defers its first check
to the next command: a pack opened with \\[find-file] would show nothing, not
even its count of errors, until a key is pressed."
  (when (and (eglot-managed-p) (bound-and-true-p flymake-mode))
    (flymake-start)))

(defcustom biki-language-client 'eglot
  "The LSP client to check packs with: eglot (built in from Emacs 29), or lsp-mode."
  :type '(choice (const :tag "eglot" eglot) (const :tag "lsp-mode" lsp-mode)))

(defgroup biki-server nil
  "The pack server's settings, as lsp-mode gives them to it.
With eglot, give them in `eglot-workspace-configuration'."
  :group 'biki
  :prefix "biki-")

(defcustom biki-pack-directories nil
  "More directories of packs for the server, with lsp-mode."
  :type '(repeat directory)
  :group 'biki-server)

(defcustom biki-plugin-directories nil
  "More directories of plugins for the server, with lsp-mode."
  :type '(repeat directory)
  :group 'biki-server)

(defcustom biki-diagnostics-delay nil
  "Seconds the server waits after an edit before it checks, with lsp-mode.
From 0 to 5; nil leaves the server's own delay."
  :type '(choice (const :tag "The server's" nil) number)
  :group 'biki-server)

(defcustom biki-inlay-hints t
  "Whether the server shows readings after numbers in prose, with lsp-mode."
  :type 'boolean
  :group 'biki-server)

(declare-function lsp-register-custom-settings "lsp-mode" (props))
(declare-function lsp-register-client "lsp-mode" (client))
(declare-function make-lsp-client "lsp-mode" (&rest arguments))
(declare-function lsp-stdio-connection "lsp-mode" (command &optional test-command))
(declare-function lsp-deferred "lsp-mode" ())
(defvar lsp-language-id-configuration)

(defun biki--register-lsp-mode-client ()
  "Register \"biki serve\" with lsp-mode, once, for `biki-pack-mode' buffers."
  (unless (get 'biki--register-lsp-mode-client 'done)
    (put 'biki--register-lsp-mode-client 'done t)
    (add-to-list 'lsp-language-id-configuration '(biki-pack-mode . "json"))
    ;; Answered when the server asks for the section "biki" (workspace/configuration).
    ;; Lists go as vectors: a list would be sent as a JSON object.
    (lsp-register-custom-settings
     `(("biki.packDirectories" ,(lambda () (vconcat biki-pack-directories)))
       ("biki.pluginDirectories" ,(lambda () (vconcat biki-plugin-directories)))
       ("biki.diagnosticsDelay" biki-diagnostics-delay)
       ("biki.inlayHints" biki-inlay-hints t)))
    (lsp-register-client
     (make-lsp-client :new-connection (lsp-stdio-connection (lambda () (biki--server-command)))
                      :major-modes '(biki-pack-mode)
                      :server-id 'biki
                      :priority 1))))

(defun biki--start-pack-server ()
  "Start eglot, or lsp-mode (`biki-language-client'), for this pack.
When biki is not installed, say once what is missing."
  (condition-case err
      (progn (biki--program)
             (if (eq biki-language-client 'lsp-mode)
                 (if (require 'lsp-mode nil t)
                     (progn (biki--register-lsp-mode-client) (lsp-deferred))
                   (user-error "Biki: lsp-mode is not installed (sudo apt-get install elpa-lsp-mode)"))
               (eglot-ensure)))
    (user-error
     (unless (get 'biki--start-pack-server 'warned)
       (put 'biki--start-pack-server 'warned t)
       (display-warning 'biki (concat (error-message-string err)
                                      ".  Packs open without diagnostics until then."))))))

;;; The quiz connection

(defvar biki--connection nil
  "The \"biki serve\" process the quiz and stats commands talk to.")

(defun biki--connection ()
  "The running quiz connection, started and initialized on first use."
  (unless (and biki--connection (jsonrpc-running-p biki--connection))
    (let ((command (biki--server-command)))
      (setq biki--connection
            (make-instance
             'jsonrpc-process-connection
             :name "biki"
             :process (make-process :name "biki serve" :command command
                                    :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                                    :stderr (get-buffer-create " *biki serve stderr*"))
             :notification-dispatcher #'ignore
             :request-dispatcher #'ignore))
      (jsonrpc-request biki--connection :initialize
                       (list :processId (emacs-pid) :capabilities #s(hash-table)))
      (jsonrpc-notify biki--connection :initialized #s(hash-table))))
  biki--connection)

(defun biki-shutdown ()
  "Stop the server of the quizzes; the next quiz will start another."
  (interactive)
  (when (and biki--connection (jsonrpc-running-p biki--connection))
    (jsonrpc-request biki--connection :shutdown nil)
    (jsonrpc-notify biki--connection :exit nil))
  (setq biki--connection nil))

(defun biki--request (method &optional params)
  "Send METHOD with PARAMS to the server and return its result.
Errors are told in terms of commands, not of protocol methods."
  (condition-case err
      (jsonrpc-request (biki--connection) method params)
    (jsonrpc-error
     (let ((message (or (alist-get 'jsonrpc-error-message (cdr err)) (format "%S" err))))
       (setq message (replace-regexp-in-string "\\`\"\\(topicId\\|sessionId\\)\": " "" message))
       (when (string-match-p "no topic" message)
         (setq message (concat message " M-x biki-topics lists them.")))
       (user-error "Biki: %s" message)))))

(defun biki--topics ()
  "Every topic the server has, as plists."
  (append (plist-get (biki--request :biki/topics) :topics) nil))

;;;###autoload
(defun biki-topics ()
  "List every topic Biki has, in a buffer."
  (interactive)
  (let ((topics (biki--topics)))
    (with-current-buffer (get-buffer-create "*Biki topics*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (dolist (topic topics)
          (insert (format "%-28s %s  (%s)\n" (plist-get topic :id) (plist-get topic :title)
                          (mapconcat #'identity (plist-get topic :skills) ", "))))
        (goto-char (point-min))
        (special-mode))
      (display-buffer (current-buffer)))))

;;; Quiz

(defvar-local biki--quiz nil
  "The quiz in this buffer.
A plist of :session :title :question :progress :feedback :done.")

(defvar biki-quiz-buffer-name "*Biki quiz*"
  "The name of the buffer quizzes are shown in.")

(defvar biki--answering nil
  "Non-nil while the minibuffer reads an answer to the quiz.")

(defvar biki-quiz-answer-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map minibuffer-local-map)
    (define-key map (kbd "C-c C-n") #'biki-quiz-skip)
    (define-key map (kbd "C-c C-e") #'biki-quiz-end)
    (define-key map (kbd "C-c C-l") #'biki-replay)
    map)
  "Keymap of the minibuffer while it reads an answer.")

(defvar biki-quiz-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map (kbd "RET") #'biki-quiz-answer)
    (define-key map "a" #'biki-quiz-answer)
    (define-key map "n" #'biki-quiz-skip)
    (define-key map "e" #'biki-quiz-end)
    (define-key map "l" #'biki-replay)
    (define-key map "r" #'biki-review)
    (define-key map "m" #'biki-missed)
    (define-key map "s" #'biki-stats)
    (define-key map "t" #'biki-topics)
    map)
  "Keymap of the quiz buffer.")

(define-derived-mode biki-quiz-mode special-mode "Biki-Quiz"
  "A Biki quiz: the question, the verdict on your last answer, then a summary.
\\<biki-quiz-answer-map>Answers are typed in the minibuffer, where
\\[biki-quiz-skip] skips the question, \\[biki-replay] says a listening question
again and \\[biki-quiz-end] ends the quiz.
In this buffer:

\\{biki-quiz-mode-map}")

(defvar biki-command-map
  (let ((map (make-sparse-keymap)))
    (define-key map "q" #'biki-quiz)
    (define-key map "r" #'biki-review)
    (define-key map "m" #'biki-missed)
    (define-key map "a" #'biki-quiz-answer)
    (define-key map "n" #'biki-quiz-skip)
    (define-key map "e" #'biki-quiz-end)
    (define-key map "l" #'biki-replay)
    (define-key map "s" #'biki-stats)
    (define-key map "t" #'biki-topics)
    map)
  "Biki's commands, for a prefix key of your choice.
Bind it, for instance, with
  (global-set-key (kbd \"C-c b\") \\='biki-command-map)")
;;;###autoload (autoload 'biki-command-map "biki" nil t 'keymap)
(fset 'biki-command-map biki-command-map)

(defun biki--voice ()
  "Return `biki-voice' as biki takes it: a file name expanded, a voice's name not."
  (if (string-match-p "\\`~\\|/" biki-voice) (expand-file-name biki-voice) biki-voice))

(defun biki--say-command (&rest arguments)
  "The command line of \"biki say\" with ARGUMENTS and the speech settings.
Those are `biki-voice', `biki-speech-rate' and `biki-speech-pitch'."
  (append (list (biki--program) "say") arguments
          (when biki-voice (list "--voice" (biki--voice)))
          (when biki-speech-rate (list "--rate" (number-to-string biki-speech-rate)))
          (when biki-speech-pitch (list "--pitch" (number-to-string biki-speech-pitch)))))

(defun biki--speech-params ()
  "Return the session's speech settings, for the server to make audio ahead."
  (append (when biki-voice (list :voice (biki--voice)))
          (when biki-speech-rate (list :rate biki-speech-rate))
          (when biki-speech-pitch (list :pitch biki-speech-pitch))))

(defun biki--speech-engine ()
  "Return the answer of \"biki say --engine\" as (SPEAKS . LINE), asked once."
  (or (get 'biki--speech-engine 'answer)
      (put 'biki--speech-engine 'answer
           (with-temp-buffer
             (let ((status (apply #'call-process (car (biki--say-command)) nil t nil
                                  (cdr (biki--say-command "--engine")))))
               (cons (eql status 0) (string-trim (buffer-string))))))))

;;;###autoload
(defun biki-speech-engine ()
  "Show the speech engine for listening questions, or what to install."
  (interactive)
  (put 'biki--speech-engine 'answer nil)
  (message "Biki: %s" (cdr (biki--speech-engine))))

(defun biki--silent-reason ()
  "Return why a listening question cannot be heard, or nil when it can."
  (cond ((not biki-speak) "sound is off (biki-speak is nil)")
        ((not (car (biki--speech-engine))) (cdr (biki--speech-engine)))))

(defun biki--speak (text shown)
  "Say TEXT, the reading of SHOWN, when `biki-speak' is on.
When nothing can speak, say once what to install."
  (when biki-speak
    (let ((engine (biki--speech-engine)))
      (if (car engine)
          (apply #'start-process "biki speech" nil (biki--say-command text shown))
        (unless (get 'biki--speak 'told)
          (put 'biki--speak 'told t)
          (message "Biki: %s" (cdr engine)))))))

(defun biki--expected-text (expected)
  "EXPECTED, as the answer, its kanji and readings."
  (format "%s  (%s, %s)" (plist-get expected :answer) (plist-get expected :kanji)
          (mapconcat #'identity (plist-get expected :readings) " / ")))

(defun biki--quiz-open-p ()
  "Return non-nil if the quiz buffer has a quiz that has not ended."
  (let ((buffer (get-buffer biki-quiz-buffer-name)))
    (and buffer
         (let ((quiz (buffer-local-value 'biki--quiz buffer)))
           (and quiz (not (plist-get quiz :done)))))))

(defun biki--quiz-render ()
  "Redraw the quiz buffer from `biki--quiz'."
  (let* ((inhibit-read-only t)
         (quiz biki--quiz)
         (question (plist-get quiz :question))
         (progress (plist-get quiz :progress))
         (limit (plist-get progress :questionLimit))
         (round (plist-get progress :round))
         (number (1+ (plist-get progress :completed))))
    (erase-buffer)
    (insert (cond (round (format "[round %d: %d/%d] " (plist-get round :number)
                                 (plist-get round :position) (plist-get round :questions)))
                  (limit (format "[%d/%d] " (min number limit) limit))
                  (t (format "[%d] " number)))
            (plist-get quiz :title) "\n\n")
    ;; A listening question's prompt is its reading, the very answer: shown only when it
    ;; cannot be heard, so it can still be answered.
    (insert "  " (cond ((not (equal (plist-get question :skill) "listening"))
                        (concat (or (plist-get question :prefix) "") (plist-get question :prompt)))
                       ((biki--silent-reason)
                        (format "🔇 No audio: %s\n  Read it instead: %s" (biki--silent-reason)
                                (plist-get question :prompt)))
                       (t "🔊 listen (an empty answer plays it again)"))
            "\n")
    (when (plist-get quiz :feedback)
      (insert "\n  " (plist-get quiz :feedback) "\n"))
    (insert (substitute-command-keys
             "\n  Answer in the minibuffer.  skip (\\<biki-quiz-answer-map>\\[biki-quiz-skip]): \
show the answer · quit (\\[biki-quiz-end]): end\n"))))

(defun biki--quiz-summary (summary)
  "Show SUMMARY in the quiz buffer and end the quiz."
  (let ((inhibit-read-only t))
    (setq biki--quiz (plist-put biki--quiz :done t))
    (erase-buffer)
    (insert (plist-get biki--quiz :title) " — finished\n\n")
    (insert (format "  Correct: %d of %d (%d on the first try)\n" (plist-get summary :correct)
                    (plist-get summary :questions) (plist-get summary :correctFirstTry)))
    (insert (format "  Wrong attempts: %d   Skipped: %d\n"
                    (plist-get summary :incorrectAttempts) (plist-get summary :skipped)))
    (when (plist-get summary :rounds)
      (insert (format "  Rounds: %d%s\n" (plist-get summary :rounds)
                      (if (equal (plist-get summary :endReason) "allRight")
                          ": each right at the first try" ""))))
    (let ((missed (append (plist-get summary :missed) nil)))
      (when missed
        (insert "\n  To practise again:\n")
        (dolist (item missed)
          (insert "    " (plist-get item :prompt) " → "
                  (biki--expected-text (plist-get item :expected)) "\n"))))
    (insert (substitute-command-keys
             "\n  \\<biki-quiz-mode-map>\\[biki-missed]: missed again · \\[biki-review]: review · \
\\[biki-stats]: stats · \\[quit-window]: close\n"))
    (goto-char (point-min))))

(defun biki--quiz-prompt ()
  "The minibuffer prompt for the current question."
  (let ((question (plist-get biki--quiz :question)))
    (cond
     ((equal (plist-get question :skill) "kana") "Reading (kana): ")
     ((equal (plist-get question :skill) "counter") "Count with its counter (5本 or ごほん): ")
     (t (let ((postfix (or (plist-get question :postfix) "")))
          (if (string-empty-p postfix) "Answer: " (format "Answer (%s): " postfix)))))))

(defun biki--counter-uses (expected)
  "Why EXPECTED's thing takes its counter: a line for each usual counter, or \"\"."
  (mapconcat (lambda (use) (concat "\n  " use ".")) (plist-get expected :counterUses) ""))

(defun biki--verdict (input result)
  "Return the verdict on INPUT, from the server's RESULT."
  (let ((verdict (plist-get result :verdict))
        (standard (plist-get result :standard))
        (hint (plist-get result :hint)))
    (cond ((null verdict) (concat "→ " (biki--expected-text (plist-get result :expected))
                                  (biki--counter-uses (plist-get result :expected))))
          ((equal verdict "correct")
           (concat "✓ " (biki--expected-text (plist-get result :expected))
                   (cond ((and standard (eq (plist-get result :uncommon) t))
                          (format "  (accepted, though uncommon: the usual reading is %s)" standard))
                         (standard (format "  (usually said %s)" standard))
                         (t ""))
                   (biki--counter-uses (plist-get result :expected))))
          ((equal verdict "incorrect")
           (concat (format "✗ not %s; try again, or skip" input)
                   (if hint (concat ". " hint) "")))
          (t "time is up"))))

(defun biki-quiz-submit (input)
  "Answer the current question of the quiz buffer with INPUT.
\"skip\" shows the answer and moves on, \"quit\" ends the quiz, an empty answer
repeats the question.  Returns non-nil while the quiz goes on."
  (with-current-buffer biki-quiz-buffer-name
    (let* ((quiz biki--quiz)
           (session (plist-get quiz :session))
           (input (string-trim (or input ""))))
      (cond
       ((plist-get quiz :done) nil)
       ((equal input "quit")
        (biki--quiz-summary
         (plist-get (biki--request :biki/endSession (list :sessionId session)) :summary))
        nil)
       ((string-empty-p input)
        (setq biki--quiz (plist-put biki--quiz :feedback nil))
        (biki--quiz-render)
        (biki--speak-question)
        t)
       (t
        (let ((result (if (equal input "skip")
                          (biki--request :biki/skip (list :sessionId session))
                        (biki--request :biki/answer (list :sessionId session :answer input)))))
          (setq biki--quiz (plist-put biki--quiz :feedback (biki--verdict input result)))
          (when (plist-get result :question)
            (setq biki--quiz (plist-put biki--quiz :question (plist-get result :question))))
          (setq biki--quiz (plist-put biki--quiz :progress (plist-get result :progress)))
          (if (eq (plist-get result :finished) t)
              (progn (biki--quiz-summary (plist-get result :summary)) nil)
            (biki--quiz-render)
            (unless (equal (plist-get result :verdict) "incorrect") (biki--speak-question))
            t)))))))

(defun biki--speak-question ()
  "Read the current question aloud, if it has speech."
  (let* ((question (plist-get biki--quiz :question))
         (speech (plist-get question :speech)))
    (when speech (biki--speak speech (or (plist-get question :speechText) speech)))))

;;;###autoload
(defun biki-replay ()
  "Say the listening question being asked again; no answer is counted."
  (interactive)
  (unless (and (biki--quiz-open-p)
               (with-current-buffer biki-quiz-buffer-name
                 (plist-get (plist-get biki--quiz :question) :speech)))
    (user-error "Biki: no question is being spoken; a listening quiz asks one (biki-quiz-skill)"))
  (when (biki--silent-reason)
    (user-error "Biki: no audio: %s" (biki--silent-reason)))
  ;; The quiz lives in its buffer; this may be called from the minibuffer's answer.
  (with-current-buffer biki-quiz-buffer-name (biki--speak-question)))

(defun biki--choose-topic ()
  "Ask for a topic id, completing over every topic with its title."
  (let* ((topics (biki--topics))
         (titles (mapcar (lambda (topic) (cons (plist-get topic :id) (plist-get topic :title)))
                         topics)))
    (completing-read "Biki topic: "
                     (lambda (string predicate action)
                       (if (eq action 'metadata)
                           `(metadata (annotation-function
                                       . ,(lambda (id) (concat "  " (cdr (assoc id titles))))))
                         (complete-with-action action titles string predicate)))
                     nil t)))

;;;###autoload
(defun biki-quiz (topic &optional questions)
  "Drill TOPIC (a topic id) for QUESTIONS questions in a quiz buffer.
Interactively, choose the topic with completion; a prefix argument sets the
count, which is otherwise `biki-quiz-questions'."
  (interactive (list (biki--choose-topic)
                     (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (biki--start-quiz (list :topicId topic
                          :mode (list :kind "questionLimit"
                                      :limit (or questions biki-quiz-questions)))
                    (or (plist-get (seq-find (lambda (entry) (equal (plist-get entry :id) topic))
                                             (biki--topics))
                                   :title)
                        topic)))

;;;###autoload
(defun biki-review (&optional questions)
  "Review the forms you are due to review, then the weak ones, then new ones.
Forms come from every topic: the sound changes and special readings Biki keeps
your memory of (8本 はっぽん, 20日 はつか).  QUESTIONS, the prefix argument, is
how many questions to ask; `biki-review-questions' by default."
  (interactive (list (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (biki--start-quiz (list :mode (list :kind "review" :limit (or questions biki-review-questions)))
                    "Review"))

;;;###autoload
(defun biki-missed (&optional topic)
  "Ask again the questions your last quiz missed, in rounds until each is right.
A question missed is one answered wrong at least once, or skipped.  Each round
asks again what the round before missed, until every question is right at the
first try.  With a prefix argument, choose TOPIC; otherwise from every topic."
  (interactive (list (and current-prefix-arg
                          (completing-read "Missed in topic: "
                                           (mapcar (lambda (entry) (plist-get entry :id)) (biki--topics))
                                           nil t))))
  (biki--start-quiz (append (list :mode (list :kind "missed")) (and topic (list :topicId topic)))
                    (if topic (concat "Missed in " topic) "Missed questions")))

(defun biki--start-quiz (params title)
  "Start a session with PARAMS and run it in the quiz buffer under TITLE."
  (let* ((params (if biki-quiz-skill (append params (list :skill biki-quiz-skill)) params))
         (params (if biki-quiz-seed (append params (list :seed biki-quiz-seed)) params))
         (params (if biki-strict (append params (list :strict t)) params))
         (params (if (biki--speech-params) (append params (list :speech (biki--speech-params))) params))
         (result (biki--request :biki/startSession params)))
    ;; The buffer shows one quiz: one left open (an error stopped its answers) ends here,
    ;; rather than staying open in the server with no way back to it.
    (when (biki--quiz-open-p)
      (with-current-buffer biki-quiz-buffer-name
        (biki--request :biki/endSession (list :sessionId (plist-get biki--quiz :session)))))
    (with-current-buffer (get-buffer-create biki-quiz-buffer-name)
      (biki-quiz-mode)
      (setq biki--quiz (list :session (plist-get result :sessionId) :title title
                             :question (plist-get result :question)
                             :progress (plist-get result :progress)))
      (biki--quiz-render)
      (biki--speak-question))
    (pop-to-buffer biki-quiz-buffer-name)
    (unless noninteractive (biki--quiz-loop))))

(defun biki--quiz-loop ()
  "Read answers in the minibuffer until the quiz ends; \\[keyboard-quit] ends it too."
  (let ((going t))
    (while going
      (redisplay)
      (setq going
            (condition-case nil
                (biki-quiz-submit
                 (let ((biki--answering t))
                   (read-from-minibuffer (with-current-buffer biki-quiz-buffer-name
                                           (biki--quiz-prompt))
                                         nil biki-quiz-answer-map)))
              (quit (biki-quiz-submit "quit") nil))))))

(defun biki--answer-with (word)
  "Answer WORD from the answer minibuffer, or in the quiz buffer's open quiz.
Outside the minibuffer, the quiz then goes on reading answers."
  (cond
   ((and biki--answering (minibufferp))
    (delete-minibuffer-contents)
    (insert word)
    (exit-minibuffer))
   ((biki--quiz-open-p)
    (pop-to-buffer biki-quiz-buffer-name)
    (when (and (biki-quiz-submit word) (not noninteractive))
      (biki--quiz-loop)))
   (t (user-error "Biki: no quiz is going on; M-x biki-quiz starts one"))))

(defun biki-quiz-skip ()
  "Show the answer to the current question, and move on to the next."
  (interactive)
  (biki--answer-with "skip"))

(defun biki-quiz-end ()
  "End the quiz, showing its summary."
  (interactive)
  (biki--answer-with "quit"))

(defun biki-quiz-answer ()
  "Go back to answering the quiz in the quiz buffer."
  (interactive)
  (unless (biki--quiz-open-p)
    (user-error "Biki: no quiz is going on; M-x biki-quiz starts one"))
  (pop-to-buffer biki-quiz-buffer-name)
  (biki--quiz-loop))

;;; Stats

;;;###autoload
(defun biki-stats ()
  "Show your accuracy, overall and by topic, and your forms, weakest first."
  (interactive)
  (let ((stats (biki--request :biki/stats)))
    (with-current-buffer (get-buffer-create "*Biki stats*")
      (let ((inhibit-read-only t)
            (overall (plist-get stats :total)))
        (erase-buffer)
        ;; Accuracy counts a skip as a miss, so the skips are shown beside it.
        (insert (format "Answers: %d   Correct: %d   Skipped: %d   Accuracy: %d%% \
(skips count as misses)\n"
                        (or (plist-get overall :answers) 0) (or (plist-get overall :correct) 0)
                        (or (plist-get overall :skipped) 0)
                        (round (* 100 (or (plist-get overall :accuracy) 0)))))
        (dolist (topic (append (plist-get stats :topics) nil))
          (insert (format "  %-28s %4d answers %4d skipped  %3d%%\n"
                          (plist-get topic :topicId) (plist-get topic :answers)
                          (or (plist-get topic :skipped) 0)
                          (round (* 100 (or (plist-get topic :accuracy) 0))))))
        (let ((forms (append (plist-get stats :forms) nil)))
          (when forms
            (insert "\nForms, weakest first (FSRS: how likely you are to recall each \
a week from now):\n")
            (dolist (form (seq-take forms 15))
              (insert (format "  %-6s %3d%%  %-16s %-9s %d reviews, %d missed\n"
                              (plist-get form :state)
                              (round (* 100 (or (plist-get form :recallInAWeek) 0)))
                              (plist-get form :form) (plist-get form :skill)
                              (plist-get form :reviews) (plist-get form :lapses))))
            (when (> (length forms) 15)
              (insert (format "  … and %d more\n" (- (length forms) 15))))
            (insert "\nM-x biki-review practises the weak ones.\n")))
        (goto-char (point-min))
        (special-mode))
      (display-buffer (current-buffer)))))

;;; Menu

(defconst biki-menu-spec
  '("Biki"
    ["Start a Quiz..." biki-quiz :help "Drill a topic, chosen with completion"]
    ["Review Due and Weak Forms" biki-review
     :help "Practise, from every topic, the forms you are due to review or weak at"]
    ["Missed Questions Again" biki-missed
     :help "Ask again what your last quiz missed, in rounds until each is right"]
    ["Answer" biki-quiz-answer :active (biki--quiz-open-p)]
    ["Skip Question" biki-quiz-skip :active (biki--quiz-open-p)]
    ["Hear It Again" biki-replay :active (biki--quiz-open-p)]
    ["End Quiz" biki-quiz-end :active (biki--quiz-open-p)]
    "---"
    ["Stats and Forms" biki-stats :help "Your accuracy, and your forms, weakest first"]
    ["List Topics" biki-topics]
    ("Pack"
     :visible (derived-mode-p 'biki-pack-mode)
     ["Go to Definition" xref-find-definitions]
     ["Fix the Problem Here..." eglot-code-actions :active (eglot-managed-p)]
     ["List Problems" flymake-show-buffer-diagnostics :active (bound-and-true-p flymake-mode)]
     ["Outline" imenu])
    "---"
    ["Which Voice Speaks" biki-speech-engine :help "Open JTalk, espeak-ng, or what to install"]
    ["Customize Biki" (customize-group 'biki)]
    ["Stop the Quiz Server" biki-shutdown])
  "The Biki menu, as `easy-menu-define' takes it.")

(easy-menu-define biki-menu (list biki-pack-mode-map biki-quiz-mode-map)
  "Biki's commands." biki-menu-spec)

;;; Setup

;;;###autoload
(defun biki-setup ()
  "Open packs in `biki-pack-mode', and check them with \"biki serve\" via eglot.
Also adds Biki's menu under Tools."
  (add-to-list 'magic-mode-alist '(biki-pack-buffer-p . biki-pack-mode))
  (add-to-list 'eglot-server-programs '(biki-pack-mode . biki--server-command))
  (add-hook 'biki-pack-mode-hook #'biki--start-pack-server)
  (easy-menu-add-item nil '("tools") biki-menu-spec "separator-games"))

(provide 'biki)
;;; biki.el ends here
