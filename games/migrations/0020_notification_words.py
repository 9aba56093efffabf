from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_post_words_data'),
    ]

    operations = [
        migrations.AddField(
            model_name='notification',
            name='words',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
