#pragma once
// Messages above the canvas that the user must see and may dismiss: what an
// import had to infer, the result of verifying every step, a comparison in
// progress. Each notice has an id (showing it again replaces it), a kind that
// colours it, rich text whose links are reported, and a close button.
#include <QWidget>

#include <map>

class QLabel;
class QVBoxLayout;

namespace tl {

class NoticeBar : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Info, Success, Warning, Error };
    explicit NoticeBar(QWidget* parent = nullptr);
    /// Shows (or replaces) notice `id`. `html` may hold links (<a href='step:6'>).
    void showNotice(const QString& id, Kind kind, const QString& html, const QString& tooltip = {});
    void dismiss(const QString& id);
    bool has(const QString& id) const { return m_rows.count(id) != 0; }
    /// The text of notice `id` ("" when not shown).
    QString text(const QString& id) const;
    QStringList ids() const;

signals:
    void linkActivated(const QString& link);
    void dismissed(const QString& id);

private:
    struct Row {
        QWidget* frame = nullptr;
        QLabel* label = nullptr;
    };
    QVBoxLayout* m_layout;
    std::map<QString, Row> m_rows;
};

} // namespace tl
