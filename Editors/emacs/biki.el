;;; biki.el --- Drill Japanese numbers with Biki; diagnostics for Biki packs  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9") (jsonrpc "1.0.14"))
;; Keywords: languages, i18n, games

;;; Commentary:

;; Two things, both through `biki serve' (JSON-RPC over stdio, see docs/protocol.md):
;;
;; - Pack files get Biki's diagnostics, quick fixes, completion and outline through eglot.  A
;;   JSON file is a pack when it names Biki's schema or has both "format" and "topics"; such a
;;   file opens in `biki-pack-mode', which eglot starts `biki serve' for.  No other JSON or
;;   JavaScript buffer is sent to Biki.
;; - M-x biki-quiz drills a topic in a buffer: the question, your answer in the minibuffer, the
;;   verdict, and a summary of what to practise.  M-x biki-review practises the forms you are
;;   due to review or weak at, from every topic.  M-x biki-stats shows your accuracy and your
;;   forms, weakest first.
;;
;; Setup:
;;   (add-to-list 'load-path "/path/to/biki/Editors/emacs")
;;   (require 'biki)
;;   (biki-setup)

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'eglot)
(require 'jsonrpc)
(require 'js)

(defgroup biki nil
  "Drill Japanese numbers with Biki."
  :group 'applications)

(defcustom biki-program "biki"
  "The biki executable: a name on `exec-path', or a file name."
  :type 'string)

(defcustom biki-quiz-questions 10
  "How many questions a quiz asks."
  :type 'integer)

(defcustom biki-quiz-skill nil
  "Which skill a quiz drills: \"reading\", \"listening\" or \"kana\"; nil for the topic's default."
  :type '(choice (const nil) string))

(defcustom biki-quiz-seed nil
  "A seed to replay the same questions; nil for new ones each time."
  :type '(choice (const nil) integer))

(defcustom biki-speak t
  "Whether questions are read aloud with espeak-ng's Japanese voice when it is installed."
  :type 'boolean)

;;; Pack files

(defconst biki--schema-name "biki-pack.schema.json")

(defun biki-pack-buffer-p ()
  "Whether the current buffer holds a Biki pack, by what its text says."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (let ((head (buffer-substring-no-properties (point-min) (min (point-max) 65536))))
        (or (string-match-p (regexp-quote biki--schema-name) head)
            (and (string-match-p "\"format\"" head) (string-match-p "\"topics\"" head)))))))

;;;###autoload
(define-derived-mode biki-pack-mode js-mode "Biki-Pack"
  "Major mode for Biki topic packs: JSON, with Biki's language server through eglot."
  (setq-local js-indent-level 2))

(defun biki--maybe-pack-mode ()
  "Switch a JSON buffer that is a pack to `biki-pack-mode'."
  (when (and buffer-file-name
             (string-match-p "\\.json\\'" buffer-file-name)
             (not (string-match-p "\\.schema\\.json\\'" buffer-file-name))
             (not (derived-mode-p 'biki-pack-mode))
             (biki-pack-buffer-p))
    (biki-pack-mode)))

;;;###autoload
(defun biki-setup ()
  "Register `biki serve' with eglot for pack files, and open pack files in `biki-pack-mode'."
  (add-to-list 'eglot-server-programs `(biki-pack-mode . (,biki-program "serve")))
  (add-hook 'find-file-hook #'biki--maybe-pack-mode)
  (add-hook 'biki-pack-mode-hook #'eglot-ensure))

;;; The quiz connection

(defvar biki--connection nil
  "The `biki serve' process the quiz and stats commands talk to.")

(defvar biki--sessions-finished nil
  "Summaries the server sent on its own (a time limit ran out), by session id.")

(defun biki--connection ()
  "The running quiz connection, started and initialized on first use."
  (unless (and biki--connection (jsonrpc-running-p biki--connection))
    (let ((program (or (executable-find biki-program)
                       (user-error "Biki: cannot find %s; install Biki (biki install) or set `biki-program'" biki-program))))
      (setq biki--connection
            (make-instance
             'jsonrpc-process-connection
             :name "biki"
             :process (make-process :name "biki serve" :command (list program "serve")
                                    :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                                    :stderr (get-buffer-create " *biki serve stderr*"))
             :notification-dispatcher #'biki--notification
             :request-dispatcher #'ignore))
      (jsonrpc-request biki--connection :initialize (list :processId (emacs-pid) :capabilities #s(hash-table)))
      (jsonrpc-notify biki--connection :initialized #s(hash-table))))
  biki--connection)

(defun biki--notification (_connection method params)
  "Handle a notification the server sends: METHOD with PARAMS."
  (when (eq method 'biki/sessionFinished)
    (push (cons (plist-get params :sessionId) (plist-get params :summary)) biki--sessions-finished)))

(defun biki-shutdown ()
  "Stop the quiz connection's server cleanly."
  (interactive)
  (when (and biki--connection (jsonrpc-running-p biki--connection))
    (jsonrpc-request biki--connection :shutdown nil)
    (jsonrpc-notify biki--connection :exit nil))
  (setq biki--connection nil))

(defun biki--request (method &optional params)
  "Send METHOD with PARAMS and return the result; errors speak of commands, not methods."
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
  "The quiz in this buffer: a plist of :session :title :question :progress :feedback :done.")

(defvar biki-quiz-buffer-name "*Biki quiz*")

(define-derived-mode biki-quiz-mode special-mode "Biki-Quiz"
  "A Biki quiz: the question, the verdict on your last answer, and at the end a summary.")

(defun biki--speak (text)
  "Say TEXT with espeak-ng when `biki-speak' is on and it is installed; say once when it is not."
  (when biki-speak
    (if (executable-find "espeak-ng")
        (start-process "biki speech" nil "espeak-ng" "-v" "ja" text)
      (unless (get 'biki--speak 'told)
        (put 'biki--speak 'told t)
        (message "Biki: espeak-ng is not installed, so questions cannot be read aloud (sudo apt-get install espeak-ng)")))))

(defun biki--expected-text (expected)
  "EXPECTED, as the answer, its kanji and readings."
  (format "%s  (%s, %s)" (plist-get expected :answer) (plist-get expected :kanji)
          (mapconcat #'identity (plist-get expected :readings) " / ")))

(defun biki--quiz-render ()
  "Redraw the quiz buffer from `biki--quiz'."
  (let* ((inhibit-read-only t)
         (quiz biki--quiz)
         (question (plist-get quiz :question))
         (progress (plist-get quiz :progress))
         (limit (plist-get progress :questionLimit))
         (number (1+ (plist-get progress :completed))))
    (erase-buffer)
    (insert (if limit (format "[%d/%d] " (min number limit) limit) (format "[%d] " number))
            (plist-get quiz :title) "\n\n")
    (insert "  " (if (equal (plist-get question :skill) "listening")
                     "🔊 listen (an empty answer plays it again)"
                   (concat (or (plist-get question :prefix) "") (plist-get question :prompt)))
            "\n")
    (when (plist-get quiz :feedback)
      (insert "\n  " (plist-get quiz :feedback) "\n"))
    (insert "\n  skip: show the answer · quit: end\n")))

(defun biki--quiz-summary (summary)
  "Show SUMMARY in the quiz buffer and end the quiz."
  (let ((inhibit-read-only t))
    (setq biki--quiz (plist-put biki--quiz :done t))
    (erase-buffer)
    (insert (plist-get biki--quiz :title) " — finished\n\n")
    (insert (format "  Correct: %d of %d (%d on the first try)\n" (plist-get summary :correct)
                    (plist-get summary :questions) (plist-get summary :correctFirstTry)))
    (insert (format "  Wrong attempts: %d   Skipped: %d\n" (plist-get summary :incorrectAttempts) (plist-get summary :skipped)))
    (let ((missed (append (plist-get summary :missed) nil)))
      (when missed
        (insert "\n  To practise again:\n")
        (dolist (item missed)
          (insert "    " (plist-get item :prompt) " → " (biki--expected-text (plist-get item :expected)) "\n"))))
    (goto-char (point-min))))

(defun biki--quiz-prompt ()
  "The minibuffer prompt for the current question."
  (let ((question (plist-get biki--quiz :question)))
    (cond
     ((equal (plist-get question :skill) "kana") "Reading (kana): ")
     ((equal (plist-get question :skill) "counter") "Count with its counter (5本 or ごほん): ")
     (t (let ((postfix (or (plist-get question :postfix) "")))
          (if (string-empty-p postfix) "Answer: " (format "Answer (%s): " postfix)))))))

(defun biki-quiz-submit (input)
  "Answer the current question of the quiz buffer with INPUT.
\"skip\" shows the answer and moves on, \"quit\" ends the quiz, an empty answer repeats the
question.  Returns non-nil while the quiz goes on."
  (with-current-buffer biki-quiz-buffer-name
    (let* ((quiz biki--quiz)
           (session (plist-get quiz :session))
           (input (string-trim (or input ""))))
      (cond
       ((plist-get quiz :done) nil)
       ((equal input "quit")
        (biki--quiz-summary (plist-get (biki--request :biki/endSession (list :sessionId session)) :summary))
        nil)
       ((string-empty-p input)
        (setq biki--quiz (plist-put biki--quiz :feedback nil))
        (biki--quiz-render)
        (biki--speak-question)
        t)
       (t
        (let* ((skipping (equal input "skip"))
               (result (if skipping
                           (biki--request :biki/skip (list :sessionId session))
                         (biki--request :biki/answer (list :sessionId session :answer input))))
               (verdict (plist-get result :verdict)))
          (setq biki--quiz
                (plist-put biki--quiz :feedback
                           (cond (skipping (concat "→ " (biki--expected-text (plist-get result :expected))))
                                 ((equal verdict "correct")
                                  (concat "✓ " (biki--expected-text (plist-get result :expected))
                                          (if (plist-get result :standard) (format "  (usually said %s)" (plist-get result :standard)) "")))
                                 ((equal verdict "incorrect")
                                  (concat (format "✗ not %s; try again, or skip" input)
                                          (if (plist-get result :hint) (concat ". " (plist-get result :hint)) "")))
                                 (t "time is up"))))
          (when (plist-get result :question)
            (setq biki--quiz (plist-put biki--quiz :question (plist-get result :question))))
          (setq biki--quiz (plist-put biki--quiz :progress (plist-get result :progress)))
          (if (eq (plist-get result :finished) t)
              (progn (biki--quiz-summary (plist-get result :summary)) nil)
            (biki--quiz-render)
            (unless (equal verdict "incorrect") (biki--speak-question))
            t)))))))

(defun biki--speak-question ()
  "Read the current question aloud, if it has speech."
  (let ((speech (plist-get (plist-get biki--quiz :question) :speech)))
    (when speech (biki--speak speech))))

(defun biki--choose-topic ()
  "Ask for a topic id, completing over every topic with its title."
  (let* ((topics (biki--topics))
         (titles (mapcar (lambda (topic) (cons (plist-get topic :id) (plist-get topic :title))) topics)))
    (completing-read "Biki topic: "
                     (lambda (string predicate action)
                       (if (eq action 'metadata)
                           `(metadata (annotation-function . ,(lambda (id) (concat "  " (cdr (assoc id titles))))))
                         (complete-with-action action titles string predicate)))
                     nil t)))

;;;###autoload
(defun biki-quiz (topic &optional questions)
  "Drill TOPIC (a topic id) for QUESTIONS questions in a quiz buffer.
Interactively, choose the topic with completion; a prefix argument sets the count."
  (interactive (list (biki--choose-topic) (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (biki--start-quiz (list :topicId topic :mode (list :kind "questionLimit" :limit (or questions biki-quiz-questions)))
                    (or (cdr (assoc topic (mapcar (lambda (entry) (cons (plist-get entry :id) (plist-get entry :title))) (biki--topics))))
                        topic)))

;;;###autoload
(defun biki-review (&optional questions)
  "Review the forms you are due to review, then the weak ones, then new ones.
Forms come from every topic: the sound changes and special readings Biki keeps
your memory of (8本 はっぽん, 20日 はつか).  QUESTIONS, the prefix argument,
is how many questions to ask (20 by default)."
  (interactive (list (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (biki--start-quiz (list :mode (list :kind "review" :limit (or questions 20))) "Review"))

(defun biki--start-quiz (params title)
  "Start a session with PARAMS and run it in the quiz buffer under TITLE."
  (let* ((params (if biki-quiz-skill (append params (list :skill biki-quiz-skill)) params))
         (params (if biki-quiz-seed (append params (list :seed biki-quiz-seed)) params))
         (result (biki--request :biki/startSession params)))
    (with-current-buffer (get-buffer-create biki-quiz-buffer-name)
      (biki-quiz-mode)
      (setq biki--quiz (list :session (plist-get result :sessionId) :title title
                             :question (plist-get result :question) :progress (plist-get result :progress)))
      (biki--quiz-render)
      (biki--speak-question))
    (pop-to-buffer biki-quiz-buffer-name)
    (unless noninteractive (biki--quiz-loop))))

(defun biki--quiz-loop ()
  "Ask for answers in the minibuffer until the quiz ends; C-g ends it too."
  (let ((going t))
    (while going
      (redisplay)
      (setq going
            (condition-case nil
                (biki-quiz-submit (read-string (with-current-buffer biki-quiz-buffer-name (biki--quiz-prompt))))
              (quit (biki-quiz-submit "quit") nil))))))

;;; Stats

;;;###autoload
(defun biki-stats ()
  "Show your accuracy over the answer history, overall and by topic."
  (interactive)
  (let ((stats (biki--request :biki/stats)))
    (with-current-buffer (get-buffer-create "*Biki stats*")
      (let ((inhibit-read-only t)
            (overall (plist-get stats :total)))
        (erase-buffer)
        ;; Accuracy counts a skip as a miss, so the skips are shown beside it.
        (insert (format "Answers: %d   Correct: %d   Skipped: %d   Accuracy: %d%% (skips count as misses)\n"
                        (or (plist-get overall :answers) 0) (or (plist-get overall :correct) 0) (or (plist-get overall :skipped) 0)
                        (round (* 100 (or (plist-get overall :accuracy) 0)))))
        (dolist (topic (append (plist-get stats :topics) nil))
          (insert (format "  %-28s %4d answers %4d skipped  %3d%%\n" (plist-get topic :topicId) (plist-get topic :answers)
                          (or (plist-get topic :skipped) 0) (round (* 100 (or (plist-get topic :accuracy) 0))))))
        (let ((forms (append (plist-get stats :forms) nil)))
          (when forms
            (insert "\nForms, weakest first (FSRS: how likely you are to recall each a week from now):\n")
            (dolist (form (seq-take forms 15))
              (insert (format "  %-6s %3d%%  %-16s %-9s %d reviews, %d missed\n" (plist-get form :state)
                              (round (* 100 (or (plist-get form :recallInAWeek) 0))) (plist-get form :form) (plist-get form :skill)
                              (plist-get form :reviews) (plist-get form :lapses))))
            (when (> (length forms) 15) (insert (format "  … and %d more\n" (- (length forms) 15))))
            (insert "\nM-x biki-review practises the weak ones.\n")))
        (goto-char (point-min))
        (special-mode))
      (display-buffer (current-buffer)))))

(provide 'biki)
;;; biki.el ends here
