"""The quiz's state and scoring, Qt-free: which quiz and question show, the answers, the score, review, progress,
what the learner missed in every quiz, and a round that brings the missed concepts back from all the quizzes."""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gpumem_gui.teach.quiz import CONCEPTS, LANGUAGES, Question, Quiz, QuizError

CHOOSER, QUESTION, REVIEW = "chooser", "question", "review"
# what was missed on a question: its answer, its prediction, or both (the value progress keeps)
ANSWER, PREDICTION, BOTH = "answer", "prediction", "both"
_MISS_KINDS: dict[str, frozenset[str]] = {
    ANSWER: frozenset({ANSWER}),
    PREDICTION: frozenset({PREDICTION}),
    BOTH: frozenset({ANSWER, PREDICTION}),
}


class Change(enum.IntEnum):
    """What an action did, so that a view redraws no more than it must."""

    NONE = 0  # nothing: a locked question, an index out of range, no quiz open
    SHOWN = 1  # the same page shows something new: a choice marked or answered, another language
    PAGE = 2  # a page was (re)opened: draw it from its top


@dataclass(frozen=True)
class Progress:
    """What the quiz remembers between runs, as plain data a settings store can keep.

    Answers are kept by question id, so editing a quiz file (reordering, adding) keeps what still applies. A restored
    value that no longer fits the quizzes (an unknown language, question or choice) is dropped, never an error.
    """

    language: str = "en"
    open_quiz: str = ""  # the quiz that was open; "" for the chooser
    current: Mapping[str, str] = field(default_factory=dict)  # quiz id -> id of the question last shown
    answers: Mapping[str, Mapping[str, object]] = field(default_factory=dict)  # quiz id -> question id -> choice
    # quiz id -> question id -> ANSWER, PREDICTION or BOTH: what was missed there and not yet got right since
    misses: Mapping[str, Mapping[str, object]] = field(default_factory=dict)


@dataclass(frozen=True)
class ReviewItem:
    """One question on the review page."""

    number: int  # 1-based, as the user reads it, in its own quiz
    question: Question
    chosen: int | None  # the choice answered, None when skipped
    verdict: str  # "right", "wrong", or "none" when not answered
    position: int = 0  # where it is among the questions asked (go_to takes this)
    quiz_id: str = ""  # the quiz it is from (in a round, maybe not the open one)
    brings_back: tuple[str, ...] = ()  # in a round: the missed concepts it was asked for


@dataclass(frozen=True)
class _Asked:
    """One question of a round: its quiz, its index there, and the missed concepts it brings back."""

    quiz: Quiz
    index: int
    concepts: tuple[str, ...]

    @property
    def question(self) -> Question:
        return self.quiz.questions[self.index]

    @property
    def key(self) -> tuple[str, str]:
        return (self.quiz.id, self.question.id)


def _restored_answers(quiz: Quiz, raw: Mapping[str, object]) -> dict[str, int]:
    answers: dict[str, int] = {}
    for question in quiz.questions:
        try:
            index = int(str(raw[question.id]))
        except (KeyError, ValueError):
            continue
        if 0 <= index < len(question.choices):
            answers[question.id] = index
    return answers


def _restored_misses(quiz: Quiz, raw: Mapping[str, object]) -> dict[str, frozenset[str]]:
    ids = {q.id for q in quiz.questions}
    return {qid: _MISS_KINDS[str(kind)] for qid, kind in raw.items() if qid in ids and str(kind) in _MISS_KINDS}


def _miss_value(kinds: frozenset[str]) -> str:
    return BOTH if len(kinds) == 2 else next(iter(kinds))


class QuizSession:
    """Choose a quiz, answer its questions one at a time (a choice can be marked before it is confirmed), review.

    Every action returns a `Change`; an answered question is locked. `progress()` is what to save, and a session made
    with it comes back at the quiz and question where this one was.

    A wrong answer or a wrong prediction, in any quiz, is remembered (`misses`) until that question is got right;
    the concepts of the missed questions (`missed_concepts`) are what the learner has to go back to. `start_retry()`
    (from the review of either quiz) brings them back: it asks every question of every quiz that teaches one of them,
    and every missed question, in a new order, each with a seed for a fresh case (`fresh_seed`) and the concepts it
    brings back (`brings_back`). While that round runs, the question, answer, score, dot and review accessors speak
    of the round's questions and answers; the first answers, which the score and progress keep, are left as they were.
    """

    def __init__(self, quizzes: Sequence[Quiz], progress: Progress | None = None) -> None:
        progress = progress if progress is not None else Progress()
        self.quizzes = list(quizzes)
        self._by_id = {q.id: q for q in self.quizzes}
        self._language = progress.language if progress.language in LANGUAGES else "en"
        self._answers = {q.id: _restored_answers(q, progress.answers.get(q.id, {})) for q in self.quizzes}
        self._misses = {q.id: _restored_misses(q, progress.misses.get(q.id, {})) for q in self.quizzes}
        self._current = {
            quiz_id: question_id
            for quiz_id, question_id in progress.current.items()
            if quiz_id in self._by_id and any(q.id == question_id for q in self._by_id[quiz_id].questions)
        }
        self._quiz: Quiz | None = None
        self._index = 0
        self._selected: int | None = None
        self._page = CHOOSER
        self._predictions: dict[str, dict[str, bool]] = {q.id: {} for q in self.quizzes}  # quiz -> question -> right
        # the round: its questions (None: no round), keyed answers, predictions and seeds, and the open quiz's
        # index when it began (where leaving it comes back when it ends on another quiz's question)
        self._round: list[_Asked] | None = None
        self._round_answers: dict[tuple[str, str], int] = {}
        self._round_predictions: dict[tuple[str, str], bool] = {}
        self._round_seeds: dict[tuple[str, str], int] = {}
        self._round_from = 0
        # come back where the user left: the quiz that was open, at its question
        if progress.open_quiz in self._by_id:
            self.open_quiz(progress.open_quiz)

    # -- what shows ----------------------------------------------------------------------------------------------

    @property
    def language(self) -> str:
        return self._language

    @property
    def page(self) -> str:
        """Which page shows: CHOOSER, QUESTION or REVIEW."""
        return self._page

    @property
    def current_quiz(self) -> Quiz | None:
        """The quiz open (in a round, the one whose review started it)."""
        return self._quiz

    @property
    def question_quiz(self) -> Quiz | None:
        """The quiz the question shown is from: the open one, or in a round maybe another."""
        asked = self._asked()
        return asked[self._index].quiz if asked else self._quiz

    @property
    def current_index(self) -> int:
        return self._index

    @property
    def questions(self) -> list[Question]:
        """The questions asked now: the open quiz's, or in a round the round's, in its order."""
        return [a.question for a in self._asked()]

    @property
    def in_retry(self) -> bool:
        """Is a round of missed concepts running?"""
        return self._round is not None

    @property
    def current_question(self) -> Question | None:
        asked = self._asked()
        return asked[self._index].question if asked else None

    @property
    def brings_back(self) -> tuple[str, ...]:
        """In a round, the missed concepts the question shown was asked for; () outside one."""
        return self._round[self._index].concepts if self._round else ()

    @property
    def is_last(self) -> bool:
        """Is the question shown the last one asked?"""
        return self._quiz is not None and self._index + 1 == len(self._asked())

    @property
    def answers(self) -> dict[str, int]:
        """Question id -> chosen choice index, for the questions asked now (the open quiz's, or the round's)."""
        return {a.question.id: c for a in self._asked() if (c := self._chosen(a)) is not None}

    @property
    def chosen(self) -> int | None:
        """The answer given to the question shown; None before it is answered."""
        asked = self._asked()
        return self._chosen(asked[self._index]) if asked else None

    @property
    def selected(self) -> int | None:
        """The choice marked (with a number key) and not yet confirmed."""
        return self._selected

    def prediction(self, question_id: str, quiz_id: str | None = None) -> bool | None:
        """Was the learner's prediction on this question right? None before one is made (kept for this run only).
        Without a quiz id: the question asked now (in a round, the round's prediction)."""
        if quiz_id is None:
            asked = self._find(question_id)
            return self._predicted(asked) if asked is not None else None
        return self._predictions.get(quiz_id, {}).get(question_id)

    def fresh_seed(self, question_id: str, quiz_id: str | None = None) -> int | None:
        """In a round, the seed of the question's fresh case (teach/fresh_cases.py); None outside one."""
        asked = self._find(question_id, quiz_id) if self._round is not None else None
        return self._round_seeds.get(asked.key) if asked is not None else None

    def missed(self) -> list[Question]:
        """The questions asked now that were answered wrong or whose prediction was wrong, in the order asked."""
        return [a.question for a in self._asked() if self._wrong(a)]

    def misses(self) -> dict[str, dict[str, str]]:
        """Quiz id -> question id -> ANSWER, PREDICTION or BOTH: what was missed in every quiz and not got right
        since (a right answer or prediction on that question, in a round or after Start again, clears it)."""
        return {
            quiz_id: {qid: _miss_value(kinds) for qid, kinds in missed.items()}
            for quiz_id, missed in self._misses.items()
            if missed
        }

    def missed_counts(self) -> tuple[int, int]:
        """How many questions, in all the quizzes, have a missed answer, and how many a missed prediction."""
        kinds = [k for missed in self._misses.values() for k in missed.values()]
        return sum(ANSWER in k for k in kinds), sum(PREDICTION in k for k in kinds)

    def missed_concepts(self) -> list[str]:
        """The concepts of every missed question, in all the quizzes, in the vocabulary's order."""
        named = {
            concept
            for quiz_id, missed in self._misses.items()
            for question in self._by_id[quiz_id].questions
            if question.id in missed
            for concept in question.concepts
        }
        return [c for c in CONCEPTS if c in named]

    def quiz(self, quiz_id: str) -> Quiz:
        quiz = self._by_id.get(quiz_id)
        if quiz is None:
            known = ", ".join(self._by_id) or "none"
            raise QuizError(f"no quiz with id {quiz_id!r} (known: {known})")
        return quiz

    def answers_of(self, quiz_id: str) -> dict[str, int]:
        return dict(self._answers[quiz_id])

    def score(self, quiz_id: str | None = None) -> int:
        """Right answers in the given (default: the open) quiz; with none given in a round, the round's."""
        if quiz_id is None and self._round is not None:
            return sum(1 for a in self._round if self._chosen(a) == a.question.answer)
        quiz = self._by_id[quiz_id] if quiz_id is not None else self._quiz
        if quiz is None:
            return 0
        answers = self._answers[quiz.id]
        return sum(1 for q in quiz.questions if answers.get(q.id) == q.answer)

    def percent(self) -> int:
        """The open quiz's score in percent of its questions, rounded half up: 1 of 8 is 13 %, not round()'s 12."""
        if self._quiz is None:
            return 0
        total = len(self._asked())
        return (200 * self.score() + total) // (2 * total)

    def unanswered(self) -> int:
        """Questions asked now left unanswered."""
        return sum(1 for a in self._asked() if self._chosen(a) is None)

    def chooser_action(self, quiz_id: str) -> str:
        """What the quiz's button on the chooser does: "start", "continue", or "see_results" once all are answered."""
        answered, total = len(self._answers[quiz_id]), len(self._by_id[quiz_id].questions)
        return "start" if answered == 0 else "see_results" if answered == total else "continue"

    def dot_states(self) -> list[str]:
        """Per question asked: "todo", "right" or "wrong"."""
        states = []
        for asked in self._asked():
            chosen = self._chosen(asked)
            states.append("todo" if chosen is None else "right" if chosen == asked.question.answer else "wrong")
        return states

    def choice_states(self) -> list[str]:
        """Per choice of the question shown: "idle" or "selected" before it is answered; after, "right" for the
        right one, "wrong" for a wrong one chosen, "dim" for the rest."""
        question = self.current_question
        if question is None:
            return []
        chosen = self.chosen
        states = []
        for i in range(len(question.choices)):
            if chosen is None:
                states.append("selected" if i == self._selected else "idle")
            elif i == question.answer:
                states.append("right")
            else:
                states.append("wrong" if i == chosen else "dim")
        return states

    def review(self) -> list[ReviewItem]:
        """Every question asked (the open quiz's, or the round's) with the answer given and its verdict; numbered as
        in its quiz."""
        items = []
        for position, asked in enumerate(self._asked()):
            question, chosen = asked.question, self._chosen(asked)
            verdict = "none" if chosen is None else "right" if chosen == question.answer else "wrong"
            items.append(
                ReviewItem(asked.index + 1, question, chosen, verdict, position, asked.quiz.id, asked.concepts)
            )
        return items

    def progress(self) -> Progress:
        """What to save so that a later session comes back here."""
        return Progress(
            language=self._language,
            open_quiz=self._quiz.id if self._quiz is not None else "",
            current=dict(self._current),
            answers={quiz_id: dict(answers) for quiz_id, answers in self._answers.items()},
            misses=self.misses(),
        )

    # -- actions -------------------------------------------------------------------------------------------------

    def set_language(self, lang: str) -> Change:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown quiz language {lang!r}; known: {', '.join(LANGUAGES)}")
        if lang == self._language:
            return Change.NONE
        self._language = lang
        return Change.SHOWN

    def open_quiz(self, quiz_id: str) -> Change:
        """Show the quiz at the question the user was on (the first, the first time)."""
        quiz = self.quiz(quiz_id)
        self._end_round()
        self._quiz = quiz
        saved = self._current.get(quiz.id)
        ids = [q.id for q in quiz.questions]
        self._index = ids.index(saved) if saved in ids else 0
        return self._go(QUESTION)

    def resume(self, quiz_id: str) -> Change:
        """Open the quiz from the chooser: a quiz with every question answered opens on its review."""
        self.open_quiz(quiz_id)
        if len(self._answers[quiz_id]) == len(self.quiz(quiz_id).questions):
            return self.show_review()
        return Change.PAGE

    def go_to(self, index: int) -> Change:
        if self._quiz is None or not 0 <= index < len(self._asked()):
            return Change.NONE
        self._index = index
        return self._go(QUESTION)

    def next_question(self) -> Change:
        """The next question; after the last, the review page."""
        if self._quiz is None:
            return Change.NONE
        if self._index + 1 < len(self._asked()):
            return self.go_to(self._index + 1)
        return self.show_review()

    def previous_question(self) -> Change:
        if self._page == REVIEW and self._quiz is not None:
            return self.go_to(len(self._asked()) - 1)
        return self.go_to(self._index - 1)

    def select_choice(self, index: int) -> Change:
        """Mark a choice; `confirm` answers with it. Answered questions stay as they are."""
        question = self.current_question
        if self._page != QUESTION or question is None or self.chosen is not None:
            return Change.NONE
        if not 0 <= index < len(question.choices):
            return Change.NONE
        self._selected = index
        return Change.SHOWN

    def answer(self, index: int) -> Change:
        """Answer the question shown with choice `index`; an answered question is locked."""
        asked = self._asked()
        if self._page != QUESTION or not asked:
            return Change.NONE
        shown = asked[self._index]
        if self._chosen(shown) is not None or not 0 <= index < len(shown.question.choices):
            return Change.NONE
        if self._round is not None:
            self._round_answers[shown.key] = index
        else:
            self._answers[shown.quiz.id][shown.question.id] = index
        self._remember(shown, ANSWER, index != shown.question.answer)
        self._selected = None
        return Change.SHOWN

    def confirm(self) -> Change:
        """Answer with the marked choice, or, once answered, go on."""
        if self._page != QUESTION or self.current_question is None:
            return Change.NONE
        if self.chosen is not None:
            return self.next_question()
        if self._selected is not None:
            return self.answer(self._selected)
        return Change.NONE

    def record_prediction(self, question_id: str, right: bool, quiz_id: str | None = None) -> Change:
        """The learner's prediction on a question asked now (of `quiz_id`, default any), graded; the first counts."""
        asked = self._find(question_id, quiz_id)
        if asked is None or self._predicted(asked) is not None:
            return Change.NONE
        if self._round is not None:
            self._round_predictions[asked.key] = right
        else:
            self._predictions[asked.quiz.id][asked.question.id] = right
        self._remember(asked, PREDICTION, not right)
        return Change.SHOWN

    def show_review(self) -> Change:
        return self._go(REVIEW) if self._quiz is not None else Change.NONE

    def restart(self) -> Change:
        """Forget the open quiz's answers and start it again from the first question (what was missed stays missed
        until it is got right)."""
        if self._quiz is None:
            return Change.NONE
        self._end_round()
        self._answers[self._quiz.id] = {}
        self._predictions[self._quiz.id] = {}
        self._index = 0
        return self._go(QUESTION)

    def start_retry(self, seed: int | None = None) -> Change:
        """Bring back what was missed, in every quiz: the questions of all the quizzes that teach a missed concept,
        and the missed questions themselves, in a new order, each with a new seed for a fresh case; a round in a
        round brings back what is missed then. NONE when nothing is."""
        if self._quiz is None:
            return Change.NONE
        concepts = set(self.missed_concepts())
        items = [
            _Asked(quiz, index, tuple(c for c in question.concepts if c in concepts))
            for quiz in self.quizzes
            for index, question in enumerate(quiz.questions)
            if concepts.intersection(question.concepts) or question.id in self._misses[quiz.id]
        ]
        if not items:
            return Change.NONE
        rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(1 << 62))
        # the open quiz first, as its questions are numbered: the order the learner met them in, which a new order
        # must not repeat (so that the answers cannot come from the sequence)
        items.sort(key=lambda a: (a.quiz is not self._quiz, self.quizzes.index(a.quiz), a.index))
        before = list(items)
        rng.shuffle(items)
        if len(items) > 1 and items == before:
            items = items[1:] + items[:1]
        if self._round is None:
            self._round_from = self._index
        self._round = items
        self._round_answers, self._round_predictions = {}, {}
        self._round_seeds = {a.key: rng.randrange(1, 1 << 31) for a in items}
        self._index = 0
        return self._go(QUESTION)

    def end_retry(self) -> Change:
        """Leave the round for the open quiz's own review."""
        if self._round is None:
            return Change.NONE
        self._end_round()
        return self.show_review()

    def back_to_quizzes(self) -> Change:
        self._end_round()
        self._quiz = None
        return self._go(CHOOSER)

    # -- inside --------------------------------------------------------------------------------------------------

    def _asked(self) -> list[_Asked]:
        """The questions asked now, each with its quiz."""
        if self._quiz is None:
            return []
        if self._round is not None:
            return self._round
        return [_Asked(self._quiz, i, ()) for i in range(len(self._quiz.questions))]

    def _find(self, question_id: str, quiz_id: str | None = None) -> _Asked | None:
        """The question asked now with this id (of this quiz): the one shown first, then the others in order."""
        asked = self._asked()
        if asked:
            asked = [asked[self._index], *asked]
        return next(
            (a for a in asked if a.question.id == question_id and quiz_id in (None, a.quiz.id)),
            None,
        )

    def _chosen(self, asked: _Asked) -> int | None:
        if self._round is not None:
            return self._round_answers.get(asked.key)
        return self._answers[asked.quiz.id].get(asked.question.id)

    def _predicted(self, asked: _Asked) -> bool | None:
        if self._round is not None:
            return self._round_predictions.get(asked.key)
        return self._predictions[asked.quiz.id].get(asked.question.id)

    def _wrong(self, asked: _Asked) -> bool:
        chosen = self._chosen(asked)
        return (chosen is not None and chosen != asked.question.answer) or self._predicted(asked) is False

    def _remember(self, asked: _Asked, kind: str, wrong: bool) -> None:
        """A miss of `kind` on the question is kept until the same kind is got right there."""
        missed = self._misses[asked.quiz.id]
        kinds = missed.get(asked.question.id, frozenset())
        kinds = kinds | {kind} if wrong else kinds - {kind}
        if kinds:
            missed[asked.question.id] = frozenset(kinds)
        else:
            missed.pop(asked.question.id, None)

    def _end_round(self) -> None:
        if self._round is not None:
            shown = self._round[self._index] if self._index < len(self._round) else None
            # back at the open quiz's own index of the question shown, or where the round began
            self._index = shown.index if shown is not None and shown.quiz is self._quiz else self._round_from
        self._round = None
        self._round_answers, self._round_predictions, self._round_seeds = {}, {}, {}

    def _go(self, page: str) -> Change:
        self._page = page
        self._selected = None
        asked = self._asked()
        if page == QUESTION and asked and self._quiz is not None and asked[self._index].quiz is self._quiz:
            self._current[self._quiz.id] = asked[self._index].question.id  # another quiz's place stays as it was
        return Change.PAGE
