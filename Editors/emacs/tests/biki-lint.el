;;; biki-lint.el --- biki.el byte-compiles, and passes checkdoc and package-lint  -*- lexical-binding: t; -*-

;; From the repository root:
;;   emacs --batch -Q -l Editors/emacs/tests/biki-lint.el
;; Prints every warning, then "biki-lint: clean" and exits 0; exits 1 on any warning, and 2
;; when all else is clean but package-lint is not installed (sudo apt-get install
;; elpa-package-lint, or from MELPA).

;;; Code:

(require 'package)
;; -Q leaves Debian's package directory out; elpa-eglot and elpa-package-lint live there.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'checkdoc)

(defvar biki-lint-file
  (expand-file-name "../biki.el" (file-name-directory (or load-file-name buffer-file-name)))
  "The file to check.")

(defvar biki-lint-problems nil
  "What the checks found, as strings, last first.")

(defvar biki-lint-package-lint-missing nil
  "Non-nil when package-lint is not installed, so could not run.")

(defun biki-lint-report (tool line text)
  "Keep a problem TOOL found at LINE, described by TEXT."
  (push (if line (format "biki.el:%s: %s: %s" line tool text) (format "%s: %s" tool text))
        biki-lint-problems))

(defun biki-lint-byte-compile ()
  "Byte-compile biki.el in a fresh Emacs, as a user's Emacs would, and keep its warnings."
  (let* ((output (make-temp-file "biki-lint-" t))
         (status
          (with-temp-buffer
            (prog1
                (call-process
                 (expand-file-name invocation-name invocation-directory) nil t nil
                 "--batch" "-Q"
                 "--eval" (prin1-to-string
                           `(progn
                              (require 'package)
                              (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
                              (package-initialize)
                              (setq byte-compile-dest-file-function
                                    (lambda (_) ,(expand-file-name "biki.elc" output)))
                              (kill-emacs (if (byte-compile-file ,biki-lint-file) 0 1)))))
              (goto-char (point-min))
              (while (re-search-forward "^.*\\(Warning\\|Error\\).*$" nil t)
                (biki-lint-report "byte-compile" nil (match-string 0)))))))
    (delete-directory output t)
    (unless (eq status 0)
      (biki-lint-report "byte-compile" nil (format "exited %s" status)))))

(defun biki-lint-checkdoc ()
  "Run checkdoc over biki.el and keep what it says."
  (with-current-buffer (find-file-noselect biki-lint-file)
    (let ((checkdoc-create-error-function
           (lambda (text start _end &optional _unfixable)
             (biki-lint-report "checkdoc" (line-number-at-pos start) text)
             nil))
          (checkdoc-autofix-flag 'never))
      (checkdoc-current-buffer t))))

(defun biki-lint-package-lint ()
  "Run package-lint over biki.el and keep what it says."
  (if (not (require 'package-lint nil t))
      (setq biki-lint-package-lint-missing t)
    ;; Offline, package-lint knows no archive; what Debian installed (eglot 1.9) stands in for
    ;; GNU ELPA, which carries the same versions.
    (setq package-archive-contents
          (mapcar (lambda (entry) (list (car entry) (cadr entry))) package-alist))
    (with-current-buffer (find-file-noselect biki-lint-file)
      (emacs-lisp-mode)
      (dolist (problem (package-lint-buffer))
        (pcase-let ((`(,line ,_column ,type ,message) problem))
          (biki-lint-report (format "package-lint %s" type) line message))))))

(biki-lint-byte-compile)
(biki-lint-checkdoc)
(biki-lint-package-lint)
(dolist (problem (reverse biki-lint-problems))
  (message "%s" problem))
(cond (biki-lint-problems
       (message "biki-lint: %d problems" (length biki-lint-problems))
       (kill-emacs 1))
      (biki-lint-package-lint-missing
       (message "biki-lint: byte-compile and checkdoc clean; package-lint is not installed \
(sudo apt-get install elpa-package-lint)")
       (kill-emacs 2))
      (t (message "biki-lint: clean")
         (kill-emacs 0)))

;;; biki-lint.el ends here
