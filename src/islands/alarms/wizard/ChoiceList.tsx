/** A step's one-of list: radio buttons as labelled choices, the draft's value checked. */
export function ChoiceList<T extends string>({
  name,
  choices,
  chosen,
  onChoose,
  label,
}: {
  name: string;
  choices: readonly T[];
  chosen: T | null;
  onChoose: (choice: T) => void;
  label: (choice: T) => React.ReactNode;
}) {
  return (
    <div className="choice-list">
      {choices.map((choice) => (
        <label key={choice} className="choice">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={chosen === choice}
            onChange={() => onChoose(choice)}
          />
          <span>{label(choice)}</span>
        </label>
      ))}
    </div>
  );
}
