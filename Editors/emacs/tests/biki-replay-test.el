;;; biki-replay-test.el --- biki.el against a recording of `biki serve'  -*- lexical-binding: t; -*-

;; The quiz shows what the server's answers hold, field by field.  The answers come from
;; Tests/clients/exchange.json (recorded from the real server, and held to it by
;; RecordedExchangeTests), replayed by Tests/clients/replay_server.py, so a field the server
;; renames fails here once the recording is made again.  No Biki needs to be installed.
;;   emacs --batch -Q -l Editors/emacs/tests/biki-replay-test.el -f ert-run-tests-batch-and-exit

;;; Code:

(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(add-to-list 'load-path (expand-file-name ".." (file-name-directory (or load-file-name buffer-file-name))))
(require 'ert)
(require 'json)
(require 'biki)

(defconst biki-replay-repository
  (expand-file-name "../../.." (file-name-directory (or load-file-name buffer-file-name))))

(defconst biki-replay-recording
  (let ((json-object-type 'plist) (json-array-type 'list) (json-key-type 'keyword))
    (json-read-file (expand-file-name "Tests/clients/exchange.json" biki-replay-repository)))
  "The recorded exchange.")

(defun biki-replay-result (method &optional nth)
  "The NTH (default 1st) recorded result of METHOD."
  (plist-get (nth (1- (or nth 1))
                  (seq-filter (lambda (step) (equal (plist-get step :method) method))
                              (plist-get biki-replay-recording :exchange)))
             :result))

;; `biki-program' names a command run with "serve": a script that starts the replay instead.
(let ((script (make-temp-file "biki-replay-" nil ".sh")))
  (with-temp-file script
    (insert "#!/bin/sh\nexec python3 "
            (shell-quote-argument (expand-file-name "Tests/clients/replay_server.py" biki-replay-repository)) " "
            (shell-quote-argument (expand-file-name "Tests/clients/exchange.json" biki-replay-repository)) "\n"))
  (set-file-modes script #o755)
  (setq biki-program script))
(setq biki-speak nil)

(ert-deftest biki-replay-a-quiz-shows-what-the-server-sent ()
  (let ((start (biki-replay-result "biki/startSession"))
        (skipped (biki-replay-result "biki/skip"))
        (right (biki-replay-result "biki/answer" 2)))
    (biki-quiz "counters.hon" 2)
    (with-current-buffer biki-quiz-buffer-name
      (should (string-match-p (regexp-quote (format "[1/%d]" (plist-get (plist-get start :progress) :questionLimit)))
                              (buffer-string)))
      (should (string-match-p (regexp-quote (plist-get (plist-get start :question) :prompt)) (buffer-string)))
      (should (equal (biki--quiz-prompt)
                     (format "Answer (%s): " (plist-get (plist-get start :question) :postfix))))
      (should (biki-quiz-submit "0"))
      (should (string-match-p "✗ not 0; try again, or skip" (buffer-string)))
      (should (biki-quiz-submit "skip"))
      (should (string-match-p (regexp-quote (concat "→ " (plist-get (plist-get skipped :expected) :answer)))
                              (buffer-string)))
      (should (string-match-p (regexp-quote (plist-get (plist-get skipped :question) :prompt)) (buffer-string)))
      (should-not (biki-quiz-submit "1本"))
      (let ((summary (plist-get right :summary)))
        (should (string-match-p "— finished" (buffer-string)))
        (should (string-match-p (regexp-quote (format "Correct: %d of %d (%d on the first try)"
                                                      (plist-get summary :correct) (plist-get summary :questions)
                                                      (plist-get summary :correctFirstTry)))
                                (buffer-string)))
        (should (string-match-p (regexp-quote (concat (plist-get (car (plist-get summary :missed)) :prompt) " → "))
                                (buffer-string)))))
    (biki-shutdown)))

;;; biki-replay-test.el ends here
