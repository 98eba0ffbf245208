vim9script
# Biki for Vim 9: quizzes, the topic list and stats from `biki serve`. The work is in
# autoload/biki.vim, read on first use, so starting Vim costs nothing.

if exists('g:loaded_biki')
  finish
endif
g:loaded_biki = 1

command -nargs=0 BikiTopics biki#Topics()
command -nargs=* -complete=customlist,biki#CompleteTopics BikiQuiz biki#Quiz(<f-args>)
command -nargs=? -complete=customlist,biki#CompleteTopics BikiMissed biki#Missed(<f-args>)
command -nargs=0 BikiSkip biki#Skip()
command -nargs=0 BikiReplay biki#Replay()
command -nargs=0 BikiStats biki#Stats()

nnoremap <silent> <Plug>(biki-topics) <ScriptCmd>biki#Topics()<CR>
nnoremap <silent> <Plug>(biki-quiz) <ScriptCmd>biki#Quiz()<CR>
nnoremap <silent> <Plug>(biki-stats) <ScriptCmd>biki#Stats()<CR>
# Insert mode too: the quiz's answer is typed at a prompt, where the question is heard again.
nnoremap <silent> <Plug>(biki-replay) <ScriptCmd>biki#Replay()<CR>
inoremap <silent> <Plug>(biki-replay) <ScriptCmd>biki#Replay()<CR>
